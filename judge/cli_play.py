"""``kerneldojo play``: the playground in a terminal (judge/playground.py). One case of the
learner's choosing (``--case n=37``, ``--seed``, ``--input a=[1,2,3]``), its outputs beside the
reference's, what the kernel printed; never a grading."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

err = Console(stderr=True)
out = Console()
SHOWN_HERE = 16  # values per output in the terminal's table (--json has all the judge's)


def _pairs(items: list[str], what: str) -> dict[str, str]:
    pairs = {}
    for item in items:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            err.print(f"[red]cannot play:[/] {what} must read NAME=VALUE, got {item!r}")
            raise typer.Exit(2)
        pairs[name.strip()] = value.strip()
    return pairs


def play(
    problem: Annotated[str, typer.Argument(help="Problem slug, or path to a problem folder")],
    source: Annotated[Path, typer.Argument(help="Your code", exists=True, dir_okay=False)],
    case: Annotated[
        list[str] | None, typer.Option("--case", help="An integer parameter: n=37 (repeatable)")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the problem's input generator")] = 0,
    inputs: Annotated[
        list[str] | None,
        typer.Option("--input", help="An input's values as JSON numbers: a=[1,2,3] (repeatable)"),
    ] = None,
    language: Annotated[
        str | None, typer.Option(help="Default: as kerneldojo grade infers")
    ] = None,
    device: Annotated[str, typer.Option(help="auto, cuda or cpu")] = "auto",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object")] = False,
) -> None:
    """Run your code on one case you choose and show its outputs beside the reference's."""
    from judge import languages, playground
    from judge.problem import loader
    from judge.problem.schema import ProblemError

    logging.basicConfig(level=logging.WARNING)
    params: dict[str, Any] = {}
    for k, v in _pairs(case or [], "--case").items():
        try:
            params[k] = int(v)
        except ValueError:
            params[k] = v  # playcase.py says it must be an integer
    literals: dict[str, Any] = {}
    for k, v in _pairs(inputs or [], "--input").items():
        try:
            literals[k] = json.loads(v)
        except json.JSONDecodeError as e:
            err.print(f"[red]cannot play:[/] --input {k}: not JSON ({e})")
            raise typer.Exit(2) from e
    text = source.read_text(encoding="utf-8", errors="replace")
    lang = languages.get(language) if language else languages.infer(source.name, text)
    if lang is None:
        err.print(f"[red]cannot play:[/] unknown language {language!r}")
        raise typer.Exit(2)
    try:
        result = playground.run(
            loader.resolve(problem),
            text,
            lang.name,
            params,
            seed,
            literals or None,
            device=device,
        )
    except (playground.PlaygroundError, ProblemError, RuntimeError, OSError) as e:
        err.print(f"[red]cannot play:[/] {escape(str(e))}")
        raise typer.Exit(2) from e
    if as_json:
        sys.stdout.write(json.dumps(result) + "\n")
        return
    _show(result)


def _fmt(v: Any) -> str:
    return f"{v:.7g}" if isinstance(v, float) else str(v)


def _show(result: dict[str, Any]) -> None:
    play = result.get("playground", {})
    ok = result["verdict"] == "accepted"
    where = ", ".join(f"{k} = {v}" for k, v in play.get("params", {}).items())
    head = "matches the reference" if ok else result["verdict"]
    out.print(f"[{'green' if ok else 'red'}]{escape(head)}[/] on {where}, seed {play.get('seed')}")
    cases = result.get("cases") or []
    message = (cases[0].get("message") if cases else "") or result.get("message", "")
    if message:
        out.print(escape(message), highlight=False)
    if play.get("call_ms") is not None:
        out.print(f"one call: {play['call_ms']} ms on {escape(result['device'])}")
    for name, pair in play.get("outputs", {}).items():
        bad = set(play.get("mismatches", {}).get(name, []))
        t = Table(title=f"{name} {pair.get('expected', pair.get('got', {})).get('shape')}")
        for col in ("index", "yours", "reference"):
            t.add_column(col, justify="right")
        got = pair.get("got", {}).get("values", [])
        exp = pair.get("expected", {}).get("values", [])
        for i in range(min(SHOWN_HERE, max(len(got), len(exp)))):
            style = "red" if i in bad else None
            g = _fmt(got[i]) if i < len(got) else ""
            t.add_row(str(i), g, _fmt(exp[i]) if i < len(exp) else "", style=style)
        out.print(t)
    if result.get("stdout"):
        out.print("[bold]printed:[/]")
        out.print(result["stdout"], highlight=False, markup=False)
