"""``kerneldojo contest ...`` and ``kerneldojo rating ...``: contests and the rating board from a
terminal, through the JSON API (with ``--server`` / ``--token`` and exit statuses as
``kerneldojo solutions``: 2 refused, the server's reason on stderr; 3 unreachable).

``contest list``, ``contest standings ID [--virtual]``, ``contest join ID``;
``rating board [--language L] [--gpu KIND]``, ``rating show USER``; each with ``--json``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any
from urllib.parse import urlencode

import typer

from app.social.cli import REFUSED, UNREACHABLE, AsJson, Refused, Server, Token, call

contest_app = typer.Typer(help="Contests: list, join, standings.", no_args_is_help=True)
rating_app = typer.Typer(help="The learners' rating: the board, one learner.", no_args_is_help=True)
_defaults: dict[str, Callable[[], str]] = {}


def _run(server: str, token: str, method: str, path: str) -> Any:
    import httpx

    base = server or (_defaults["server"]() if "server" in _defaults else "http://127.0.0.1:8000")
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    try:
        with httpx.Client(base_url=base, headers=headers, timeout=30) as h:
            return call(h, method, path)
    except Refused as e:
        typer.echo(f"refused: {e}", err=True)
        raise typer.Exit(REFUSED) from e
    except httpx.HTTPError as e:
        typer.echo(f"cannot reach {base}: {e}", err=True)
        raise typer.Exit(UNREACHABLE) from e


def _ms(v: float | None) -> str:
    if v is None:
        return ""
    return f" {v:.3f} ms" if v >= 1 else f" {v * 1000:.1f} µs"


def standings_lines(board: dict[str, Any]) -> list[str]:
    """What ``contest standings`` prints: a state line, then one line per contestant."""
    state = board["phase"] + (", frozen" if board["frozen"] else "")
    if board["rerun_pending"]:
        state += f", {board['rerun_pending']} re-run gradings left"
    out = [f"{'virtual' if board['virtual'] else 'live'} board ({state})"]
    for line in board["lines"]:
        cells = []
        for c in line["cells"]:
            mark = (
                f"+{c['tries'] or ''} {c['minutes']:.0f}′{_ms(c['score_ms'])}"
                if c["solved"]
                else (f"-{c['tries']}" if c["tries"] else ".")
            )
            if c["rerun"]:
                mark += f" (re-run: {c['rerun']})"
            cells.append(f"{c['problem']} {mark}")
        out.append(
            f"{line['rank']:>3}. {line['username']:<20} {line['points']:>7.1f} pts "
            f"{line['solved']} solved {line['minutes']:>7.1f} min  " + " | ".join(cells)
        )
    return out


def rating_lines(rows: list[dict[str, Any]]) -> list[str]:
    return [
        f"{r['rank']:>3}. {r['username']:<20} {r['rating']:>7.0f}  {r['solved']} solved"
        for r in rows
    ]


@contest_app.command("list")
def list_cmd(server: Server = "", token: Token = "", as_json: AsJson = False) -> None:
    """The contests you may see, the latest first."""
    rows = _run(server, token, "GET", "/contests")
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    for c in rows:
        typer.echo(
            f"#{c['id']:<4} {c['phase']:<9} {c['start_at'][:16]} → {c['end_at'][:16]}  {c['title']}"
        )
    if not rows:
        typer.echo("no contest")


@contest_app.command("standings")
def standings_cmd(
    contest: Annotated[int, typer.Argument(help="The contest's id.")],
    virtual: Annotated[bool, typer.Option("--virtual", help="The virtual participations.")] = False,
    server: Server = "",
    token: Token = "",
    as_json: AsJson = False,
) -> None:
    """A contest's board, as the page shows it (frozen near the end until the reveal)."""
    board = _run(
        server, token, "GET", f"/contests/{contest}/standings?virtual={str(virtual).lower()}"
    )
    typer.echo(json.dumps(board, indent=2) if as_json else "\n".join(standings_lines(board)))


@contest_app.command("join")
def join_cmd(
    contest: Annotated[int, typer.Argument(help="The contest's id.")],
    server: Server = "",
    token: Token = "",
) -> None:
    """Join a contest (after its end: start a virtual participation)."""
    j = _run(server, token, "POST", f"/contests/{contest}/join")
    typer.echo(f"joined{' virtually, from ' + j['started_at'] if j['virtual'] else ''}")


@rating_app.command("board")
def board_cmd(
    language: Annotated[str, typer.Option(help="Only this language's submissions.")] = "",
    gpu: Annotated[str, typer.Option(help="Only this GPU kind's submissions.")] = "",
    server: Server = "",
    token: Token = "",
    as_json: AsJson = False,
) -> None:
    """The rating board, highest first (docs/rating.md)."""
    query = urlencode({k: v for k, v in (("language", language), ("gpu", gpu)) if v})
    rows = _run(server, token, "GET", "/rating" + (f"?{query}" if query else ""))
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    for line in rating_lines(rows) or ["nobody is rated yet"]:
        typer.echo(line)


@rating_app.command("show")
def show_cmd(
    username: Annotated[str, typer.Argument(help="A learner's name.")],
    server: Server = "",
    token: Token = "",
    as_json: AsJson = False,
) -> None:
    """A learner's rating and its history."""
    r = _run(server, token, "GET", f"/users/{username}/rating")
    if as_json:
        typer.echo(json.dumps(r, indent=2))
        return
    now = "unrated" if r["rating"] is None else f"{r['rating']:.0f}"
    typer.echo(f"{r['username']}: {now}")
    for p in r["history"]:
        typer.echo(f"  {p['at'][:16]}  {p['rating']:.0f}")


def build(default_server: Callable[[], str]) -> tuple[typer.Typer, typer.Typer]:
    """The ``contest`` and ``rating`` commands, with the server to reach when none is given."""
    _defaults["server"] = default_server
    return contest_app, rating_app
