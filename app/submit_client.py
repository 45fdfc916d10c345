"""``kerneldojo submit``: post a solution to the API, follow its SSE stream, print the result."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table

from app import unavailable
from judge.verdicts import Verdict

console = Console()


def _label(v: str) -> str:
    if v == unavailable.VERDICT:
        return unavailable.LABEL
    try:
        return Verdict(v).label
    except ValueError:
        return v


def stage_text(ev: dict[str, Any]) -> str:
    st = ev.get("stage")
    if st == "queued":
        return f"queued (position {ev.get('queue_position') or '?'})"
    detail = f" ({ev['detail']})" if ev.get("detail") else ""
    if st in ("testing", "benchmarking"):
        word = "test" if st == "testing" else "benchmark"
        return f"{word} {ev.get('index')} of {ev.get('total')}: {ev.get('name', '')}{detail}"
    return str(st or ev.get("status") or "...") + detail


def sse_events(resp: httpx.Response) -> Iterator[tuple[str, dict[str, Any]]]:
    event, data = "message", ""
    for line in resp.iter_lines():
        if not line:
            if data:
                yield event, json.loads(data)
            event, data = "message", ""
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data += line[5:].strip()


UNREACHABLE = 3  # the exit code when the server cannot be reached


def submit_and_follow(
    server: str, token: str, problem: str, source: str, language: str, mode: str, gpu: str | None
) -> int:
    """Returns the exit code: 0 accepted, 1 another verdict, 2 the server refused it,
    3 (``UNREACHABLE``) the server could not be reached or the connection was lost."""
    try:
        return _submit_and_follow(server, token, problem, source, language, mode, gpu)
    except httpx.TransportError as e:
        print(unreachable_message(server, e), file=sys.stderr)
        return UNREACHABLE


def unreachable_message(server: str, e: httpx.TransportError) -> str:
    """One line: what failed, why, and what to check (not httpx's traceback)."""
    reason = re.sub(r"^\[Errno -?\d+\]\s*", "", str(e)).strip() or type(e).__name__
    reason = reason[:1].lower() + reason[1:]
    url = server.rstrip("/")
    if isinstance(e, httpx.ConnectError | httpx.ConnectTimeout):
        return (
            f"cannot reach {url}: {reason}; is the server running? "
            "set --server or KERNELDOJO_SERVER"
        )
    return f"lost the connection to {url}: {reason}; the submission may still be graded there"


def _submit_and_follow(
    server: str,
    token: str,
    problem: str,
    source: str,
    language: str,
    mode: str,
    gpu: str | None,
    transport: httpx.BaseTransport | None = None,
) -> int:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with httpx.Client(
        base_url=server.rstrip("/"), headers=headers, timeout=30, transport=transport
    ) as client:
        r = client.post(
            "/api/v1/submissions",
            json={
                "problem": problem,
                "language": language,
                "source": source,
                "mode": mode,
                "gpu_kind": gpu,
            },
        )
        if r.status_code not in (201, 202):  # 202: stored, queued once the broker returns
            detail = (
                r.json().get("detail")
                if r.headers.get("content-type", "").startswith("application/json")
                else r.text
            )
            console.print(f"[bold red]refused ({r.status_code}):[/] {detail}")
            return 2
        sub = r.json()
        console.print(
            f"submission [bold]#{sub['id']}[/] · {problem} · {language} · {sub['gpu_kind']}"
        )
        if r.status_code == 202:
            console.print(f"[yellow]{sub.get('notice') or 'stored; queued later'}[/]")
        with (
            console.status("queued") as status,
            client.stream("GET", f"/api/v1/submissions/{sub['id']}/events", timeout=None) as resp,
        ):
            for event, ev in sse_events(resp):
                status.update(stage_text(ev))
                if event == "done":
                    break
        detail = client.get(f"/api/v1/submissions/{sub['id']}").json()
        saved = save_report(client, detail)
    print_result(detail, server, saved)
    return 0 if detail.get("verdict") == "accepted" else 1


def save_report(client: httpx.Client, sub: dict[str, Any]) -> Path | None:
    """A profile's .ncu-rep, downloaded into the current folder (None if it has none)."""
    if not ((sub.get("result") or {}).get("profile") or {}).get("report_file"):
        return None
    r = client.get(f"/api/v1/submissions/{sub['id']}/profile.ncu-rep")
    if r.status_code != 200:
        return None
    path = Path(f"submission-{sub['id']}-{sub.get('problem', 'profile')}.ncu-rep")
    path.write_bytes(r.content)
    return path


def print_result(sub: dict[str, Any], server: str, saved: Path | None = None) -> None:
    r = sub.get("result") or {}
    v = sub.get("verdict") or "internal_error"
    color = "green" if v == "accepted" else "yellow" if v == unavailable.VERDICT else "red"
    console.print(f"[bold {color}]{_label(v)}[/]  {r.get('message') or ''}")
    cases = r.get("cases") or []
    if cases:
        t = Table("test", "result", "detail", box=None)
        for c in cases:
            t.add_row(
                c["name"],
                "[green]pass[/]" if c["passed"] else "[red]FAIL[/]",
                c.get("message") or "",
            )
        console.print(t)
    comp = r.get("compile") or {}
    if comp and not comp.get("ok") and comp.get("log"):
        console.print("[bold]compile log[/]")
        console.print(comp["log"], markup=False, highlight=False)
    bench = r.get("benchmark") or []
    if bench:
        t = Table("benchmark", "median", "GB/s", "TFLOP/s", "% of SOL", box=None)
        for b in bench:
            t.add_row(
                b["name"],
                f"{b['median_ms']:.4f} ms",
                f"{b['gbps']:.1f}",
                f"{b['tflops']:.2f}",
                f"{b['sol_pct']:.0f}%",
            )
        console.print(t)
        console.print(f"score (geometric mean): [bold]{r.get('score_ms'):.4f} ms[/]")
    from judge.cli_profile import render_tools

    render_tools(r)  # a profile's figures and hints, a sanitizer's findings
    if saved is not None:
        console.print(f"report saved as {saved} (open it in Nsight Compute)")
    console.print(f"{server.rstrip('/')}/submissions/{sub['id']}")
