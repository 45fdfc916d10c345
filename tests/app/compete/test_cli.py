"""``kerneldojo contest ...`` and ``kerneldojo rating ...`` (app/compete/cli.py): the calls they
make, answered by the app itself (a test client stands for the server), their lines, and the
exit statuses of the real commands."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from typer.testing import CliRunner

from app.compete import cli
from app.social.cli import Refused, call
from tests.app.social.helpers import learner
from tests.class_factories import judged, user_client
from tests.conftest import free_port
from worker.cli import app as kerneldojo


def test_rating_board_and_standings_through_the_api(client: TestClient, engine: Engine) -> None:
    teach, csrf = user_client(client, "teach", instructor=True)
    teach.headers["X-CSRF-Token"] = csrf
    ada = learner(client, "ada")
    now = datetime.now(UTC)
    body = {"title": "Quiz", "problems": ["toy-add"], "gpu_kind": "h100",
            "start_at": (now - timedelta(minutes=10)).isoformat(),
            "end_at": (now + timedelta(minutes=10)).isoformat()}  # fmt: skip
    cid = call(teach, "POST", "/contests", body)["id"]
    assert call(ada, "POST", f"/contests/{cid}/join")["virtual"] is False
    judged(engine, "ada", now - timedelta(minutes=4), verdict="compile_error", gpu_kind="h100")
    judged(engine, "ada", now - timedelta(minutes=3), score_ms=0.5, gpu_kind="h100")
    lines = cli.standings_lines(call(ada, "GET", f"/contests/{cid}/standings"))
    assert lines == [
        "live board (running)",
        "  1. ada                    200.0 pts 1 solved     7.0 min  toy-add +1 7′ 500.0 µs",
    ]
    rows = call(ada, "GET", "/rating?gpu=h100")
    assert cli.rating_lines(rows) == ["  1. ada                     1100  1 solved"]
    with pytest.raises(Refused, match="404: there is no such contest"):
        call(ada, "GET", "/contests/999/standings")


def test_the_commands_exit_statuses() -> None:
    runner = CliRunner()
    down = f"http://127.0.0.1:{free_port()}"
    for args in (["contest", "standings", "1"], ["rating", "board", "--gpu", "h100"],
                 ["contest", "list"], ["rating", "show", "ada"]):  # fmt: skip
        r = runner.invoke(kerneldojo, [*args, "--server", down])
        assert r.exit_code == cli.UNREACHABLE and "cannot reach" in r.output, args
    r = runner.invoke(kerneldojo, ["contest", "standings"])
    assert r.exit_code == 2 and "Missing argument" in r.output  # typer's usage error
