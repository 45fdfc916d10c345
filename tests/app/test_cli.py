"""The ``kerneldojo`` commands of the web side: ``admin create`` and ``submit`` (against a live
``kerneldojo serve``, streaming the real grading of a Triton solution)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlmodel import Session, select

from app.core.db import make_engine
from app.core.security import new_api_token
from app.models import ApiToken, User
from tests.conftest import LiveServer
from tests.samples import VECTOR_ADD as SOLUTION

KERNELDOJO = str(Path(sys.executable).parent / "kerneldojo")


def test_admin_create(tmp_path: Path) -> None:
    env = {**os.environ, "DATA_DIR": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    r = subprocess.run(
        [KERNELDOJO, "admin", "create", "--username", "prof", "--password", "s3cret-pass"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    with Session(make_engine(f"sqlite:///{tmp_path / 'kerneldojo.db'}")) as s:
        u = s.exec(select(User).where(User.username == "prof")).one()
        assert u.is_admin and u.password_hash.startswith("$argon2")
    r = subprocess.run(
        [KERNELDOJO, "admin", "create", "--username", "x", "--password", "short"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2


def test_admin_create_from_environment(tmp_path: Path) -> None:
    """The web container's start-up creates the first admin with no prompt and no argv secret."""
    env = {
        **os.environ,
        "DATA_DIR": str(tmp_path),
        "KERNELDOJO_ADMIN_USERNAME": "envprof",
        "KERNELDOJO_ADMIN_PASSWORD": "from-the-env-1",
    }
    env.pop("DATABASE_URL", None)
    r = subprocess.run(
        [KERNELDOJO, "admin", "create"],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    with Session(make_engine(f"sqlite:///{tmp_path / 'kerneldojo.db'}")) as s:
        assert s.exec(select(User).where(User.username == "envprof")).one().is_admin


@pytest.mark.timeout(180)
def test_submit_streams_progress_and_prints_the_result(
    live_server: LiveServer, tmp_path: Path
) -> None:
    token, digest = new_api_token()
    with Session(make_engine(live_server.database_url)) as s:
        u = User(username="cli-user", password_hash="x")
        s.add(u)
        s.commit()
        s.refresh(u)
        assert u.id is not None
        s.add(ApiToken(user_id=u.id, name="cli", token_hash=digest, prefix=token[:7]))
        s.commit()
    sol = tmp_path / "solution.py"
    sol.write_text(SOLUTION)
    env = {**os.environ, "KERNELDOJO_TOKEN": token, "COLUMNS": "120"}
    r = subprocess.run(
        [KERNELDOJO, "submit", "vector-add", str(sol), "--server", live_server.url, "--run"],
        env=env,
        capture_output=True,
        text=True,
        timeout=150,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Accepted" in r.stdout and "n = 1025" in r.stdout and "/submissions/" in r.stdout
    r = subprocess.run(
        [KERNELDOJO, "submit", "no-such-problem", str(sol), "--server", live_server.url],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and "unknown problem" in r.stdout


def test_submit_infers_the_language_from_the_registry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import typer
    from typer.testing import CliRunner

    from app import cli, submit_client
    from tests import fake_language

    sent: list[str] = []
    monkeypatch.setattr(submit_client, "submit_and_follow", lambda *a: sent.append(a[4]) or 0)
    fake_language.register(monkeypatch)
    app = typer.Typer()
    app.command()(cli.submit)
    app.command()(cli.serve)  # two commands: the first argument names one
    for name in ("x.cu", "x.py", "x.fk", "x.txt"):
        (tmp_path / name).write_text("pass\n")
        r = CliRunner().invoke(app, ["submit", "vector-add", str(tmp_path / name)])
        assert r.exit_code == 0, r.output
    assert sent == ["cuda", "triton", "fakelang", ""]  # unknown: the server says which exist
