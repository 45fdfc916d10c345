"""Shared test helpers: free ports, the databases (SQLite and PostgreSQL), the repo root."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURE_PROBLEMS = ROOT / "tests" / "fixtures" / "problems"
PG_URL = os.environ.get("KERNELDOJO_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("KERNELDOJO_TEST_REDIS", "redis://127.0.0.1:6379/0")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def grade_cli(problem: Path, source: Path, *options: str) -> dict[str, Any]:
    """``kerneldojo grade PROBLEM SOURCE --device cpu --json [OPTIONS]``'s result (exit 0)."""
    kerneldojo = str(Path(sys.executable).parent / "kerneldojo")
    cmd = [kerneldojo, "grade", str(problem), str(source), "--device", "cpu", *options, "--json"]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    return dict(json.loads(r.stdout))


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def db_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A migrated, empty database of each kind; PostgreSQL gets a fresh schema per session."""
    from app.core.db import migrate

    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'test.db'}"
        migrate(url)
        yield url
        return
    import sqlalchemy as sa

    schema = f"kd_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(PG_URL)
    with admin.begin() as c:
        c.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    url = f"{PG_URL}?options=-csearch_path%3D{schema}"
    try:
        migrate(url)
        yield url
    finally:
        with admin.begin() as c:
            c.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def problems_root() -> Path:
    """The five real problems (``problems/``); KERNELDOJO_TEST_PROBLEMS overrides for development."""
    return Path(os.environ.get("KERNELDOJO_TEST_PROBLEMS") or ROOT / "problems")


class LiveServer:
    """``kerneldojo serve`` as a user runs it: SQLite, the embedded broker, a worker alongside."""

    def __init__(self, url: str, data_dir: Path, log: Path) -> None:
        self.url, self.data_dir, self.log = url, data_dir, log

    @property
    def database_url(self) -> str:
        return f"sqlite:///{self.data_dir / 'kerneldojo.db'}"


@contextlib.contextmanager
def serving(data: Path, **extra_env: str) -> Iterator[LiveServer]:
    """``kerneldojo serve`` in ``data`` (its DATA_DIR), the environment's ``extra_env`` added;
    stopped on leaving."""
    import signal
    import time

    import httpx

    port = free_port()
    env = {
        **os.environ,
        "DATA_DIR": str(data),
        "KERNELDOJO_GPU_KIND": "cpu",
        "ENVIRONMENT": "development",
        "PROBLEMS_DIR": str(problems_root()),
        "KERNELDOJO_PROBLEMS": str(problems_root()),
        **extra_env,
    }
    for k in ("DATABASE_URL", "REDIS_URL", "GPU_KINDS"):
        env.pop(k, None)
    log = data / "serve.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--port", str(port)],
            env=env,
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{url}/problems", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"kerneldojo serve did not start:\n{log.read_text()[-4000:]}")
        time.sleep(0.3)
    try:
        yield LiveServer(url, data, log)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # The worker's self-test at its start (worker/selftest.py) is not these tests' subject
    # (tests/browser/test_unavailable_language.py runs it in a server of its own).
    with serving(tmp_path_factory.mktemp("serve"), KERNELDOJO_SELF_TEST="0") as server:
        yield server


# The problems check (tests/judge/test_problems_check.py) grades every sample in one shard
# process per core. It starts when collection ends and its tests run last, so it grades while the
# rest of the suite runs.
PROBLEMS_CHECK = "tests/judge/test_problems_check.py::"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    checks = [i for i in items if i.nodeid.startswith(PROBLEMS_CHECK)]
    if checks:
        items[:] = [i for i in items if not i.nodeid.startswith(PROBLEMS_CHECK)] + checks


def pytest_collection_finish(session: pytest.Session) -> None:
    if session.config.option.collectonly:
        return
    if any(i.nodeid.startswith(PROBLEMS_CHECK) for i in session.items):
        from tests.judge import test_problems_check

        test_problems_check.start(session.items)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    module = sys.modules.get("tests.judge.test_problems_check")
    line = module.summary() if module is not None else None
    if line:
        terminalreporter.write_line(line)


def pytest_sessionfinish(session: pytest.Session) -> None:
    module = sys.modules.get("tests.judge.test_problems_check")
    if module is not None:
        module.stop()
