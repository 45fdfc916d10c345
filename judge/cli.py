"""The judge's commands: ``grade``, ``problems list|check``, ``problems new|mutate``
(cli_authoring.py) and ``doctor`` (cli_doctor.py).

They need only the judge's own packages (torch, triton, numpy, typer, rich): a bare GPU host runs
``python -m judge.cli grade ...``. The ``kerneldojo`` command (worker/cli.py) mounts these and the
web's commands.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from judge import languages
from judge.cli_authoring import mutate, new
from judge.cli_doctor import doctor
from judge.cli_play import play
from judge.problem.schema import ProblemError
from judge.results import CaseResult, GradeResult
from judge.verdicts import Verdict

app = typer.Typer(
    help="KernelDojo: a judge for GPU kernels.", no_args_is_help=True, add_completion=False
)
problems_app = typer.Typer(
    help="Problem folders: list, check, new and mutate.", no_args_is_help=True
)
app.add_typer(problems_app, name="problems")
problems_app.command("new")(new)
problems_app.command("mutate")(mutate)
app.command()(doctor)
app.command()(play)
err = Console(stderr=True)
out = Console()

_COLORS = {Verdict.ACCEPTED: "green", Verdict.WRONG_ANSWER: "red", Verdict.NOT_RUN: "yellow"}


def _progress_printer(enabled: bool) -> Any:
    start = time.monotonic()

    def show(event: dict[str, Any]) -> None:
        if not enabled:
            return
        stage = event["stage"]
        t = f"[dim]{time.monotonic() - start:6.1f}s[/]"
        detail = f" ({event['detail']})" if event.get("detail") else ""
        if stage in ("testing", "benchmarking") and "index" in event:
            err.print(f"{t} {stage} {event['index']}/{event['total']}: {event['name']}{detail}")
        elif stage != "done":
            err.print(f"{t} {stage}{detail}")

    return show


def _error_cell(c: CaseResult) -> str:
    """A passing case's worst error against what its tolerance allowed there (as the web shows
    it: "0.47 × tol"); a failing case's absolute error (its message says what was allowed)."""
    if c.passed and c.tol_ratio is not None:
        return f"{c.tol_ratio:.2g} × tol"
    return "" if c.max_abs_error is None else f"{c.max_abs_error:.3g}"


def render(result: GradeResult, gpu_only: tuple[str, ...] = ()) -> None:
    """The result for a terminal. ``gpu_only``: the test cases a CPU grading skipped (they run
    only on a GPU), named so that a pass on the CPU is not read as a pass of every case."""
    color = _COLORS.get(result.verdict, "red")
    out.print(
        f"[bold {color}]{result.verdict.label}[/]  {result.problem} ({result.language}) on {result.device}"
    )
    if result.message:
        out.print(result.message, markup=False, highlight=False)
    for w in result.warnings:  # e.g. what an H100 might refuse that the interpreter ran
        out.print(f"[yellow]warning:[/] {w}", highlight=False)
    if result.compile and result.compile.log.strip():
        out.print("[bold]compiler output[/]")
        out.print(result.compile.log.strip()[-3000:], markup=False, highlight=False)
    if result.cases:
        t = Table(title="Test cases")
        t.add_column("case")
        t.add_column("result")
        t.add_column("max error", justify="right")
        t.add_column("details")
        for c in result.cases:
            t.add_row(
                Text(c.name),  # plain text: "c[n]" in a name or message is not markup
                "[green]pass[/]" if c.passed else "[red]fail[/]",
                _error_cell(c),
                Text(c.message),
            )
        out.print(t)
    if gpu_only and result.cases:
        names = ", ".join(gpu_only)
        out.print(
            f"{len(gpu_only)} more test case{'s' if len(gpu_only) > 1 else ''} run only on a GPU "
            f"and were not run here: {names}",
            markup=False,
            highlight=False,
        )
    if result.benchmark:
        t = Table(title="Benchmark")
        for col in ("case", "median ms", "runs", "±rse %", "GB/s", "TFLOP/s", "% SOL", "bound"):
            t.add_column(col, justify="right" if col != "case" else "left")
        for b in result.benchmark:
            t.add_row(
                b.name,
                f"{b.median_ms:.4f}",
                str(b.runs),
                f"{b.rse_pct:.2f}",
                f"{b.gbps:.0f}",
                f"{b.tflops:.1f}",
                f"{b.sol_pct:.1f}",
                b.bound,
            )
        out.print(t)
        out.print(f"score (geometric mean): {result.score_ms:.4f} ms")


MODES = ("submit", "run", "profile", "sanitize")
_NAMES = " or ".join(languages.names())
_SUFFIXES = " or ".join(f"{lang.suffix} ({lang.label})" for lang in languages.all())


def infer_language(source: Path) -> str | None:
    """The registry's language for a file (``languages.infer``: a ``# language:`` line, the
    file name, a Python file's imports, the suffix), or None."""
    try:
        text = source.read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    lang = languages.infer(source.name, text)
    return lang.name if lang else None


@app.command()
def grade(
    problem: Annotated[str, typer.Argument(help="Problem slug, or path to a problem folder")],
    source: Annotated[
        Path,
        typer.Argument(help=f"Submission: {_SUFFIXES}", exists=True, dir_okay=False),
    ],
    language: Annotated[
        str | None,
        typer.Option(
            help=f"{_NAMES} (default: from a '# language:' line, the imports, the suffix)"
        ),
    ] = None,
    device: Annotated[str, typer.Option(help="auto, cuda or cpu")] = "auto",
    mode: Annotated[
        str,
        typer.Option(
            help="submit (tests + benchmark), run (tests only), profile (one run under Nsight "
            "Compute) or sanitize (tests, then a case under compute-sanitizer)"
        ),
    ] = "submit",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object")] = False,
    report_dir: Annotated[
        Path | None,
        typer.Option(
            help="Where --mode profile keeps the .ncu-rep (default: KERNELDOJO_PROFILE_DIR)"
        ),
    ] = None,
) -> None:
    """Grade one submission and print the verdict."""
    from judge import grader
    from judge.problem import loader

    logging.basicConfig(level=logging.WARNING)
    name = language or infer_language(source)
    lang = languages.get(name) if name else None
    if lang is None or device not in ("auto", "cuda", "cpu") or mode not in MODES:
        err.print(
            f"[red]cannot grade:[/] language must be {_NAMES} (got {name!r}), device "
            f"auto|cuda|cpu, mode {'|'.join(MODES)}"
        )
        raise typer.Exit(2)
    try:
        prob = loader.resolve(problem)
        result = grader.grade(
            prob,
            source.read_text(encoding="utf-8", errors="replace"),
            lang.name,
            device=device,
            mode=mode,
            on_progress=_progress_printer(not as_json),
            report_dir=report_dir.resolve() if report_dir else None,
        )
    except (ProblemError, RuntimeError, OSError) as e:
        err.print(f"[red]cannot grade:[/] {e}")
        raise typer.Exit(2) from e
    if as_json:
        sys.stdout.write(json.dumps(result.to_dict()) + "\n")
    else:
        from judge.cli_profile import render_tools

        gpu_only = (
            tuple(c.name for c in prob.tests if not lang.runs_on_cpu_case(prob, c))
            if result.device == "cpu-interpreter"
            else ()
        )
        render(result, gpu_only)
        if mode == "profile" and report_dir is None:
            from judge.profile import tools

            report_dir = tools.report_dir()
        render_tools(result.to_dict(), report_dir)


@problems_app.command("list")
def list_problems() -> None:
    """List the problems in the problems folder."""
    from judge.problem import loader

    report = loader.load_all()
    t = Table()
    # A slug is what the other commands take: never cut or wrapped, however narrow the terminal
    # (the title wraps instead).
    widest = max((len(p.slug) for p in report.problems), default=4)
    t.add_column("slug", no_wrap=True, min_width=widest)
    for col in ("title", "difficulty", "tests", "benchmarks", "samples"):
        t.add_column(col)
    for p in report.problems:
        t.add_row(
            p.slug,
            p.title,
            p.difficulty,
            str(len(p.tests)),
            str(len(p.benchmarks)),
            str(len(p.samples)),
        )
    out.print(t)
    for e in report.errors:
        err.print(f"[red]invalid:[/] {e}")


@problems_app.command("check")
def check(
    slugs: Annotated[list[str] | None, typer.Argument(help="Only these problems")] = None,
    device: Annotated[str, typer.Option(help="auto, cuda or cpu")] = "auto",
    mode: Annotated[str, typer.Option(help="run (tests only) or submit (with benchmarks)")] = "run",
    as_json: Annotated[bool, typer.Option("--json", help="Print results as JSON lines")] = False,
    jobs: Annotated[
        int, typer.Option(help="Processes checking problems side by side (0: one per CPU core)")
    ] = 1,
    shard: Annotated[bool, typer.Option(hidden=True, help="JSON rows only, for --jobs")] = False,
) -> None:
    """Validate every problem folder and grade every sample solution against its declared verdict."""
    import os

    from judge import grader, problem_check
    from judge.problem import loader

    logging.basicConfig(level=logging.WARNING)
    report = loader.load_all()
    for e in report.errors:
        err.print(f"[red]invalid problem folder:[/] {e}")
    chosen = [p for p in report.problems if not slugs or p.slug in slugs]
    if slugs and len(chosen) != len(slugs):
        missing = set(slugs) - {p.slug for p in chosen}
        err.print(f"[red]unknown problems:[/] {', '.join(sorted(missing))}")
        raise typer.Exit(2)
    jobs = jobs if jobs > 0 else (os.cpu_count() or 1)
    if jobs > 1 and len(chosen) > 1 and not shard and grader.resolve_device(device) != "cuda":
        rows = problem_check.rows_in_parallel(chosen, device, mode, jobs)
    else:  # one GPU is not shared: its samples are graded one at a time
        rows = problem_check.rows(chosen, device, mode)
    t = Table(title="Sample solutions")
    for col in ("problem", "sample", "expected", "got", "ok", "seconds", "details"):
        t.add_column(col)
    bad = len(report.errors)
    for row in rows:
        if shard or as_json:
            sys.stdout.write(json.dumps(row) + "\n")
            sys.stdout.flush()
        if "invalid" in row:
            bad += 1
            if not shard:
                err.print(f"[red]invalid problem folder:[/] {row['invalid']}", markup=False)
            continue
        bad += not row["ok"]
        if shard:
            continue
        got = row["result"]["verdict"]
        t.add_row(
            row["problem"],
            f"{row['folder']}/{row['sample']}",
            row["expected"],
            got,
            "[green]yes[/]" if row["ok"] else "[red]NO[/]",
            f"{row['seconds']:.1f}",
            Text(row["detail"]),  # not markup: "c[n]" would vanish as a tag
        )
        if not as_json:
            err.print(
                f"{row['problem']}/{row['sample']}: {got} "
                f"({'ok' if row['ok'] else 'MISMATCH'}, {row['seconds']:.1f}s)"
                + (f": {row['detail']}" if row["detail"] else ""),
                markup=False,
            )
    if shard:
        return
    (err if as_json else out).print(t)
    if bad:
        err.print(f"[red]{bad} problem(s) found[/]")
        raise typer.Exit(1)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
