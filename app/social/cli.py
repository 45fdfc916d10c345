"""``kerneldojo solutions ...``: published solutions from a terminal, through the JSON API.

``list PROBLEM [--sort votes|speed]``, ``show ID``, ``publish SUBMISSION --title T
[--writeup FILE.md]`` and ``unpublish ID``, each with ``--server`` / ``KERNELDOJO_SERVER`` and
``--token`` / ``KERNELDOJO_TOKEN`` (a personal token: ``read`` to list and show, ``submit`` to
publish), ``--json`` for the API's own JSON. Exit status: 0 done, 2 refused by the server (the
reason on stderr: not solved yet, not yours, ...), 3 the server cannot be reached.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Protocol

import typer

solutions_app = typer.Typer(help="Published solutions: list, show, publish.", no_args_is_help=True)

REFUSED, UNREACHABLE = 2, 3
Server = Annotated[
    str,
    typer.Option(envvar="KERNELDOJO_SERVER", help="The server; default: http://127.0.0.1:$PORT."),
]
Token = Annotated[
    str, typer.Option(envvar="KERNELDOJO_TOKEN", help="Personal API token (Settings → Tokens).")
]
AsJson = Annotated[bool, typer.Option("--json", help="Print the API's JSON.")]


class Http(Protocol):
    """What the commands need of an HTTP client (httpx's, or a test client)."""

    def request(self, method: str, url: str, *, json: Any | None = ...) -> Any: ...


class Refused(Exception):
    pass


def call(http: Http, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """One API call; the JSON answer, or ``Refused`` with the server's reason."""
    r = http.request(method, f"/api/v1{path}", json=body)
    if r.status_code >= 400:
        try:
            detail = r.json().get("detail")
        except ValueError:
            detail = r.text
        raise Refused(
            f"{r.status_code}: {detail if isinstance(detail, str) else json.dumps(detail)}"
        )
    return r.json() if r.content else None


def _ms(v: float | None) -> str:
    if v is None:
        return "untimed"
    return f"{v:.3f} ms" if v >= 1 else f"{v * 1000:.1f} µs"


def table(rows: list[dict[str, Any]]) -> list[str]:
    """The lines ``list`` prints: one per solution, best first."""
    out = []
    for s in rows:
        pct = f"{s['sol_pct']:.0f}% SoL" if s.get("sol_pct") is not None else "-"
        out.append(
            f"#{s['id']:<5} ▲{s['votes']:<3} {_ms(s['score_ms']):>11}  {pct:>8}  "
            f"{s['language']:<8} {s['gpu_kind']:<5} {s['username']}: {s['title']}"
        )
    return out


def build(default_server: Callable[[], str]) -> typer.Typer:
    """The ``solutions`` commands, with the server to reach when none is given (app/cli.py's,
    passed in: this module is imported by it, and never imports it back)."""
    _defaults["server"] = default_server
    return solutions_app


_defaults: dict[str, Callable[[], str]] = {}


def default_server() -> str:
    return _defaults["server"]() if "server" in _defaults else "http://127.0.0.1:8000"


def _run(server: str, token: str, method: str, path: str, body: dict[str, Any] | None) -> Any:
    import httpx

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    try:
        with httpx.Client(base_url=server or default_server(), headers=headers, timeout=30) as h:
            return call(h, method, path, body)
    except Refused as e:
        typer.echo(f"refused: {e}", err=True)
        raise typer.Exit(REFUSED) from e
    except httpx.HTTPError as e:
        typer.echo(f"cannot reach {server or default_server()}: {e}", err=True)
        raise typer.Exit(UNREACHABLE) from e


@solutions_app.command("list")
def list_cmd(
    problem: Annotated[str, typer.Argument(help="Problem slug.")],
    sort: Annotated[str, typer.Option(help="votes or speed.")] = "votes",
    server: Server = "",
    token: Token = "",
    as_json: AsJson = False,
) -> None:
    """A problem's published solutions (once you have solved it or given up on it)."""
    rows = _run(server, token, "GET", f"/problems/{problem}/solutions?sort={sort}", None)
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    for line in table(rows) or [f"no published solution of {problem} yet"]:
        typer.echo(line)


@solutions_app.command("show")
def show_cmd(
    solution: Annotated[int, typer.Argument(help="The solution's id.")],
    server: Server = "",
    token: Token = "",
    as_json: AsJson = False,
) -> None:
    """A published solution: its figures, write-up (Markdown) and code."""
    s = _run(server, token, "GET", f"/solutions/{solution}", None)
    if as_json:
        typer.echo(json.dumps(s, indent=2))
        return
    typer.echo(table([s])[0])
    typer.echo(f"\n{s['writeup']}\n\n--- {s['language']} ---\n{s['source']}")


@solutions_app.command("publish")
def publish_cmd(
    submission: Annotated[int, typer.Argument(help="Your accepted submission's id.")],
    title: Annotated[str, typer.Option(help="The solution's title.")],
    writeup: Annotated[
        Path | None,
        typer.Option(exists=True, dir_okay=False, help="A Markdown file: the write-up."),
    ] = None,
    server: Server = "",
    token: Token = "",
    as_json: AsJson = False,
) -> None:
    """Publish (or update) one of your accepted submissions with a title and a write-up."""
    text = writeup.read_text(encoding="utf-8") if writeup else ""
    body = {"submission_id": submission, "title": title, "writeup": text}
    s = _run(server, token, "POST", "/solutions", body)
    typer.echo(json.dumps(s, indent=2) if as_json else f"published as solution {s['id']}")


@solutions_app.command("unpublish")
def unpublish_cmd(
    solution: Annotated[int, typer.Argument(help="Your published solution's id.")],
    server: Server = "",
    token: Token = "",
) -> None:
    """Take your published solution back (publishing its submission again restores it)."""
    _run(server, token, "DELETE", f"/solutions/{solution}", None)
    typer.echo(f"solution {solution} unpublished")
