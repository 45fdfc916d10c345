"""``kerneldojo solutions ...`` (app/social/cli.py): the calls it makes, answered by the app
itself (a test client stands for the server), and the exit statuses of the real command."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from typer.testing import CliRunner

from app.social import cli
from tests.app.social.helpers import accepted, learner
from tests.conftest import free_port
from worker.cli import app as kerneldojo


def test_publish_list_show_unpublish_through_the_api(client: TestClient, engine: Engine) -> None:
    alice, bob = learner(client, "alice"), learner(client, "bob")
    sub = accepted(engine, "alice", score_ms=0.25, sol_pcts=(50.0,))
    body = {"submission_id": sub, "title": "Vectorised", "writeup": "Use `tl.arange`."}
    sid = cli.call(alice, "POST", "/solutions", body)["id"]
    accepted(engine, "bob", score_ms=0.5)
    rows = cli.call(bob, "GET", "/problems/toy-add/solutions?sort=speed")
    assert cli.table(rows) == [
        f"#{sid:<5} ▲0      250.0 µs   50% SoL  triton   h100  alice: Vectorised"
    ]
    assert cli.call(bob, "GET", f"/solutions/{sid}")["writeup"] == "Use `tl.arange`."
    assert cli.call(alice, "DELETE", f"/solutions/{sid}") is None
    with pytest.raises(cli.Refused, match="404: There is no published solution"):
        cli.call(bob, "GET", f"/solutions/{sid}")


def test_a_learner_who_has_not_solved_it_is_refused(client: TestClient, engine: Engine) -> None:
    carol = learner(client, "carol")
    with pytest.raises(cli.Refused, match="403: Published solutions of toy-add open once"):
        cli.call(carol, "GET", "/problems/toy-add/solutions")


def test_the_command_exit_statuses(tmp_path: Path) -> None:
    runner = CliRunner()
    down = f"http://127.0.0.1:{free_port()}"
    r = runner.invoke(kerneldojo, ["solutions", "list", "toy-add", "--server", down])
    assert r.exit_code == cli.UNREACHABLE and "cannot reach" in r.output
    note = tmp_path / "w.md"
    note.write_text("# Idea")
    r = runner.invoke(
        kerneldojo,
        ["solutions", "publish", "1", "--title", "t", "--writeup", str(note), "--server", down],
    )
    assert r.exit_code == cli.UNREACHABLE
    r = runner.invoke(kerneldojo, ["solutions", "publish", "1"])
    assert r.exit_code == 2 and "--title" in r.output  # typer's usage error
