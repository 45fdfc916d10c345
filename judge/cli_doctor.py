"""``kerneldojo doctor`` (``python -m judge.cli doctor`` on a bare GPU host): the environment and
each language's self-test (judge/doctor.py), for a terminal, as one JSON object (``--json``), or
as JSON lines while it runs (``--stream``, what a starting worker reads: worker/selftest.py).

Exit status: 0 when every language is available, 1 when one is not, 2 when it could not run.
"""

from __future__ import annotations

import json
import logging
import sys
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

out = Console()
err = Console(stderr=True)
_COLORS = {"ok": "green", "unavailable": "red", "untested": "yellow"}


def _emit(kind: str, data: Any) -> None:
    sys.stdout.write(json.dumps({kind: data}) + "\n")
    sys.stdout.flush()


def render_environment(env: dict[str, Any]) -> None:
    out.print(
        f"[bold]Python[/] {env['python']} ({env['implementation']}) · {env['os']} · "
        f"{env['machine']} · {env['cpu_count']} CPUs",
        highlight=False,
    )
    gpu = env.get("gpu")
    if gpu:
        out.print(
            f"[bold]GPU[/] {gpu['name']} ×{gpu['count']} · compute capability "
            f"{gpu['compute_capability']} · {gpu['memory_gib']} GiB · driver "
            f"{gpu['driver'] or 'unknown'} · torch's CUDA {gpu['cuda'] or 'none'}",
            highlight=False,
        )
    else:
        out.print("[bold]GPU[/] none: languages are graded on the CPU", highlight=False)
    versions = ", ".join(f"{k} {v or '—'}" for k, v in env["packages"].items())
    out.print(f"[bold]packages[/] {versions}", highlight=False)
    tools = env["tools"]
    out.print(
        f"[bold]tools[/] nvcc {tools['nvcc'] or '— (not on PATH)'} · "
        f"bubblewrap {tools['bubblewrap'] or '— (not found)'} · sandbox {env['sandbox']}",
        highlight=False,
    )
    if (kl := env.get("kernel_ledger")) is not None:
        state = "built" if kl["library"] else f"[red]off[/]: {escape(str(kl['why']))}"
        out.print(
            f"[bold]kernel ledger[/] {state} · {len(kl['cupti'])} libcupti to try",
            highlight=False,
        )


def render_languages(statuses: list[dict[str, Any]]) -> None:
    folders = sorted({s["sample"].rpartition("/")[0] for s in statuses if s["sample"]})
    t = Table(
        title="Languages (each grades a known-good sample)",
        caption=f"samples from {', '.join(folders)}/" if folders else None,
    )
    for col in ("language", "status", "verdict", "seconds", "sample", "error"):
        t.add_column(col, justify="right" if col == "seconds" else "left")
    for s in statuses:
        color = _COLORS.get(s["status"], "white")
        t.add_row(
            s["label"],
            f"[{color}]{s['status']}[/]",
            s["verdict"] or "",
            f"{s['seconds']:.1f}",
            Text(s["sample"].rpartition("/")[2]),
            Text(s["error"]),  # plain text: "c[n]" in a message is not markup
        )
    out.print(t)


def doctor(
    device: Annotated[str, typer.Option(help="auto, cuda or cpu")] = "auto",
    language: Annotated[
        list[str] | None, typer.Option(help="Test only this language (repeatable)")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object")] = False,
    stream: Annotated[
        bool, typer.Option(hidden=True, help="JSON lines while it runs, for a starting worker")
    ] = False,
) -> None:
    """Print this host's environment and whether each language works here (its self-test)."""
    from judge import doctor as selftest

    logging.basicConfig(level=logging.ERROR)
    if device not in ("auto", "cuda", "cpu"):
        err.print(f"[red]cannot run the self-test:[/] device must be auto|cuda|cpu, not {device!r}")
        raise typer.Exit(2)
    try:
        names = selftest.chosen(language)
    except ValueError as e:
        err.print(f"[red]cannot run the self-test:[/] {e}")
        raise typer.Exit(2) from e

    def heard(status: selftest.LanguageStatus) -> None:
        if stream:
            _emit("language", status.to_dict())
        elif not as_json:
            err.print(
                f"{status.label}: {status.status} ({status.seconds:.1f}s)",
                markup=False,
                highlight=False,
            )

    def environment(env: dict[str, Any]) -> None:
        if stream:
            _emit("environment", env)
        elif not as_json:
            render_environment(env)

    try:
        report = selftest.run(
            device, [n.name for n in names], on_status=heard, on_environment=environment
        )
    except RuntimeError as e:  # --device cuda without a GPU
        err.print(f"[red]cannot run the self-test:[/] {e}")
        raise typer.Exit(2) from e
    if stream:
        _emit("done", {"seconds": report.seconds, "ok": report.ok})
    elif as_json:
        sys.stdout.write(json.dumps(report.to_dict()) + "\n")
    else:
        render_languages([s.to_dict() for s in report.languages])
        out.print(f"self-test took {report.seconds:.1f} s", highlight=False)
    if not report.ok:
        raise typer.Exit(1)
