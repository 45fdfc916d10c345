"""The authoring commands: ``problems new`` (skeleton.py) and ``problems mutate`` (mutate/).

``problems mutate`` prints, for a terminal, the survivors with a diff line each and the counts;
with ``--json`` one object per problem (run.Report.to_dict). It exits 0 whatever the score:
``problems check`` does not yet fail a problem on it (docs/mutation.md); 2 when it could not run.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from judge import languages
from judge.mutate.run import OPERATORS, Report
from judge.problem.schema import ProblemError

# Lines are not wrapped at the terminal's width (a path or a diff stays whole); tables are.
out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)

_COLORS = {"killed": "green", "survived": "red", "equivalent": "blue", "not_run": "yellow"}


def render(report: Report, show_all: bool) -> None:
    for s in report.samples:
        if "detail" in s:
            out.print(
                f"[yellow]{s['sample']}:[/] {s['verdict']} as it is: its mutants were not "
                f"graded ({s['detail']})",
                highlight=False,
            )
    shown = [
        r for r in report.results if show_all or r.outcome in ("survived", "equivalent", "error")
    ]
    if shown:
        t = Table(title=f"{report.problem}: {'mutants' if show_all else 'survivors'}")
        for col in (
            "mutant",
            "outcome",
            "diff",
            "details" if show_all else "reason (mutants.toml)",
        ):
            t.add_column(col, no_wrap=col == "mutant")
        for r in shown:
            color = _COLORS.get(r.outcome, "white")
            t.add_row(
                Text(r.mutant.id), f"[{color}]{r.outcome}[/]", Text(r.mutant.diff), Text(r.detail)
            )
        out.print(t)
    c = report.counts()
    score = "—" if report.score is None else f"{100 * report.score:.1f}%"
    out.print(
        f"[bold]{report.problem}[/] on {report.device}: {c['mutants']} mutants: {c['killed']} "
        f"killed, {c['survived']} survived, {c['equivalent']} equivalent, {c['stillborn']} "
        f"stillborn, {c['not_run']} not run, {c['error']} errors; score {score} "
        "(killed ÷ (killed + survived))",
        highlight=False,
    )
    for key in report.stale:
        err.print(f"[yellow]mutants.toml:[/] {key}: no such mutant any more", markup=True)
    for key in report.listed_but_killed:
        err.print(f"[yellow]mutants.toml:[/] {key}: listed as equivalent, but a test kills it")


def mutate(
    problems: Annotated[list[str], typer.Argument(help="Problem slugs or folders")],
    device: Annotated[str, typer.Option(help="auto, cuda or cpu")] = "auto",
    language: Annotated[str | None, typer.Option(help="Only the samples in this language")] = None,
    sample: Annotated[
        list[str] | None, typer.Option(help="Only this accepted sample (a file name); repeatable")
    ] = None,
    operator: Annotated[
        list[str] | None,
        typer.Option(help=f"Only this operator; repeatable: {', '.join(OPERATORS)}"),
    ] = None,
    jobs: Annotated[
        int, typer.Option(help="Processes grading side by side (0: one per core; 1 on a GPU)")
    ] = 0,
    timeout: Annotated[
        float,
        typer.Option(help="Seconds per mutant (0: 4x its sample's own grading, at least 60)"),
    ] = 0.0,
    show_all: Annotated[bool, typer.Option("--all", help="List every mutant")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per problem")] = False,
) -> None:
    """Grade mutants of each accepted sample (mutation testing) and list the survivors."""
    from judge import grader
    from judge.mutate import run
    from judge.problem import loader

    logging.basicConfig(level=logging.WARNING)
    unknown = sorted(set(operator or ()) - set(OPERATORS))
    if (language is not None and languages.get(language) is None) or unknown:
        err.print(
            f"[red]cannot mutate:[/] language must be {' or '.join(languages.names())}; "
            f"operators {', '.join(OPERATORS)} (got {language!r}, {unknown})"
        )
        raise typer.Exit(2)
    try:
        chosen = [loader.resolve(p) for p in problems]
        dev = grader.resolve_device(device)
    except (ProblemError, RuntimeError) as e:
        err.print(f"[red]cannot mutate:[/] {e}")
        raise typer.Exit(2) from e
    workers = jobs if jobs > 0 else (os.cpu_count() or 1) if dev == "cpu" else 1
    for prob in chosen:
        try:
            report = run.mutate(
                prob,
                dev,
                jobs=workers,
                language=language,
                samples=tuple(sample or ()),
                operators=tuple(operator or ()),
                limit_s=timeout or None,
                progress=lambda line: err.print(line, markup=False, highlight=False),
            )
        except ProblemError as e:
            err.print(f"[red]cannot mutate:[/] {e}")
            raise typer.Exit(2) from e
        if as_json:
            sys.stdout.write(json.dumps(report.to_dict()) + "\n")
            sys.stdout.flush()
        else:
            render(report, show_all)


def new(
    slug: Annotated[str, typer.Argument(help="The new problem's slug (the folder's name)")],
    root: Annotated[
        Path | None, typer.Option(help="The problems folder (default: the one configured)")
    ] = None,
    starters: Annotated[
        bool,
        typer.Option(
            "--starters", help="Only write starter/ again, from an existing folder's signature"
        ),
    ] = False,
) -> None:
    """Write a new problem folder's skeleton: every field explained, ready to fill in."""
    from judge import skeleton
    from judge.problem import loader

    base = root or loader.problems_dir()
    try:
        if starters:
            written = skeleton.write_starters(loader.load_problem(base / slug))
        else:
            written = skeleton.create(base, slug)
    except ProblemError as e:
        err.print(f"[red]cannot write it:[/] {e}")
        raise typer.Exit(2) from e
    for path in written:
        out.print(f"wrote {path}", highlight=False)
    if not starters:
        out.print("\n[bold]Still to do[/] (each place is marked TODO):")
        for item in skeleton.TODO_LIST:
            out.print(f"  - {item}", highlight=False)
