"""The ``kerneldojo`` command: grading and problem checks here; web commands from app.cli."""

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

from worker.grading import languages
from worker.grading.results import GradeResult
from worker.grading.schema import ProblemError
from worker.grading.verdicts import Verdict

app = typer.Typer(
    help="KernelDojo: a judge for GPU kernels.", no_args_is_help=True, add_completion=False
)
problems_app = typer.Typer(help="Problem folders: list and check.", no_args_is_help=True)
app.add_typer(problems_app, name="problems")
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
        if stage in ("testing", "benchmarking"):
            err.print(f"{t} {stage} {event['index']}/{event['total']}: {event['name']}{detail}")
        elif stage != "done":
            err.print(f"{t} {stage}{detail}")

    return show


def render(result: GradeResult) -> None:
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
                c.name,
                "[green]pass[/]" if c.passed else "[red]fail[/]",
                "" if c.max_abs_error is None else f"{c.max_abs_error:.3g}",
                c.message,
            )
        out.print(t)
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
        str, typer.Option(help="submit (tests + benchmark) or run (tests only)")
    ] = "submit",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object")] = False,
) -> None:
    """Grade one submission and print the verdict."""
    from worker.grading import grader, problems

    logging.basicConfig(level=logging.WARNING)
    name = language or infer_language(source)
    lang = languages.get(name) if name else None
    if lang is None or device not in ("auto", "cuda", "cpu") or mode not in ("submit", "run"):
        err.print(
            f"[red]cannot grade:[/] language must be {_NAMES} (got {name!r}), device auto|cuda|cpu, mode submit|run"
        )
        raise typer.Exit(2)
    try:
        prob = problems.resolve(problem)
        result = grader.grade(
            prob,
            source.read_text(encoding="utf-8", errors="replace"),
            lang.name,
            device=device,
            mode=mode,
            on_progress=_progress_printer(not as_json),
        )
    except (ProblemError, RuntimeError, OSError) as e:
        err.print(f"[red]cannot grade:[/] {e}")
        raise typer.Exit(2) from e
    if as_json:
        sys.stdout.write(json.dumps(result.to_dict()) + "\n")
    else:
        render(result)


@problems_app.command("list")
def list_problems() -> None:
    """List the problems in the problems folder."""
    from worker.grading import problems

    report = problems.load_all()
    t = Table()
    for col in ("slug", "title", "difficulty", "tests", "benchmarks", "samples"):
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
) -> None:
    """Validate every problem folder and grade every sample solution against its declared verdict."""
    from worker.grading import grader, problems
    from worker.grading.runner_client import RunnerPool

    logging.basicConfig(level=logging.WARNING)
    report = problems.load_all()
    for e in report.errors:
        err.print(f"[red]invalid problem folder:[/] {e}")
    chosen = [p for p in report.problems if not slugs or p.slug in slugs]
    if slugs and len(chosen) != len(slugs):
        missing = set(slugs) - {p.slug for p in chosen}
        err.print(f"[red]unknown problems:[/] {', '.join(sorted(missing))}")
        raise typer.Exit(2)
    t = Table(title="Sample solutions")
    for col in ("problem", "sample", "expected", "got", "ok", "seconds", "details"):
        t.add_column(col)
    bad = len(report.errors)
    pool = RunnerPool(grader.resolve_device(device))
    for p in chosen:
        try:
            problems.load_reference(p)
        except ProblemError as e:
            err.print(f"[red]invalid problem folder:[/] {e}")
            bad += 1
            continue
        for s in p.samples:
            t0 = time.monotonic()
            res = grader.grade(
                p,
                s.path.read_text(encoding="utf-8"),
                s.language,
                device=device,
                mode=mode,
                pool=pool,
            )
            dt = time.monotonic() - t0
            expected = s.expected
            detail = ""
            if res.verdict == Verdict.NOT_RUN and not languages.require(s.language).runs_on_cpu:
                # Without a GPU a CUDA sample is only compiled: a compile_error must still fail to
                # compile. Its declared message is checked where it runs (scripts/gpu_check.py).
                ok = expected != Verdict.COMPILE_ERROR
            elif res.verdict != expected:
                ok = False
            elif not s.message_ok(res.message):
                ok = False
                detail = f"message lacks {s.expected_message!r}; got: "
            else:
                ok = True
            bad += not ok
            if not ok:
                detail = (detail + (res.message or ""))[:300]
            if as_json:
                sys.stdout.write(
                    json.dumps(
                        {
                            "problem": p.slug,
                            "sample": s.path.name,
                            "expected": str(expected),
                            "expected_message": s.expected_message,
                            "result": res.to_dict(),
                            "ok": ok,
                            "seconds": round(dt, 2),
                        }
                    )
                    + "\n"
                )
                sys.stdout.flush()
            t.add_row(
                p.slug,
                f"{s.path.parent.name}/{s.path.name}",
                str(expected),
                str(res.verdict),
                "[green]yes[/]" if ok else "[red]NO[/]",
                f"{dt:.1f}",
                Text(detail),  # not markup: "c[n]" would vanish as a tag
            )
            if not as_json:
                err.print(
                    f"{p.slug}/{s.path.name}: {res.verdict} ({'ok' if ok else 'MISMATCH'}, {dt:.1f}s)"
                    + (f": {detail}" if detail else ""),
                    markup=False,
                )
    pool.close()
    (err if as_json else out).print(t)
    if bad:
        err.print(f"[red]{bad} problem(s) found[/]")
        raise typer.Exit(1)


def _register_web() -> None:
    try:
        from app.cli import register
    except ImportError:  # the judge core runs on GPU hosts without the web stack
        return
    register(app)


_register_web()


def main() -> None:
    app()


if __name__ == "__main__":
    main()
