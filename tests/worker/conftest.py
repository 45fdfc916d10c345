"""Real Celery workers on the real Redis (127.0.0.1:6379), each test under its own key prefix."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app import submissions
from app.cli import worker_argv
from app.core.config import Settings
from app.core.db import make_engine, migrate
from app.models import Submission, SubmissionCreate, User
from tests.conftest import FIXTURE_PROBLEMS, PG_URL, REDIS_URL, ROOT

ACCEPTED = """import triton
import triton.language as tl


@triton.jit
def add_kernel(a, b, c, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(c + offs, tl.load(a + offs, mask=m) + tl.load(b + offs, mask=m), mask=m)


def solve(a, b, c, n):
    add_kernel[(triton.cdiv(n, 256),)](a, b, c, n, BLOCK=256)
"""

# Correct, but slow enough (a second or two in solve) that a test can kill its worker mid-grading.
SLOW = ACCEPTED.replace(
    "def solve(a, b, c, n):\n", "def solve(a, b, c, n):\n    import time\n\n    time.sleep(1.5)\n"
)


class Stack:
    """A database, a broker prefix, and workers started on demand."""

    def __init__(self, tmp: Path, stuck_after_s: float, database: str) -> None:
        self.tmp = tmp
        self.pg_schema = ""
        url = f"sqlite:///{tmp / 'kd.db'}"
        if database == "postgresql":  # a deployment's database, in a schema of its own
            import sqlalchemy as sa

            self.pg_schema = f"kdw_{uuid.uuid4().hex[:10]}"
            with sa.create_engine(PG_URL).begin() as c:
                c.execute(sa.text(f'CREATE SCHEMA "{self.pg_schema}"'))
            url = f"{PG_URL}?options=-csearch_path%3D{self.pg_schema}"
        self.env = {
            **os.environ,
            "DATABASE_URL": url,
            "REDIS_URL": REDIS_URL,
            "REDIS_PREFIX": f"kdtest-{uuid.uuid4().hex[:8]}:",
            "KERNELDOJO_GPU_KIND": "cpu",
            "KERNELDOJO_PROBLEMS": str(FIXTURE_PROBLEMS),
            "PROBLEMS_DIR": str(FIXTURE_PROBLEMS),
            "STUCK_AFTER_S": str(stuck_after_s),
            "BROKER_VISIBILITY_TIMEOUT_S": "4",
            "ENVIRONMENT": "test",
            "SECRET_KEY": "w" * 40,
            "DATA_DIR": str(tmp),
            # The worker's self-test at its start (worker/selftest.py) is not these tests'
            # subject (tests/worker/test_self_test.py turns it on).
            "KERNELDOJO_SELF_TEST": "0",
        }
        self.settings = Settings(
            ENVIRONMENT="test",
            SECRET_KEY="w" * 40,
            DATABASE_URL=self.env["DATABASE_URL"],
            REDIS_URL=REDIS_URL,
            REDIS_PREFIX=self.env["REDIS_PREFIX"],
            BROKER_VISIBILITY_TIMEOUT_S=4,
        )
        migrate(self.settings.database_url)
        self.engine: Engine = make_engine(self.settings.database_url)
        from app.queue import TASK_NAME, make_celery

        self.celery = make_celery(self.settings)
        self.task = TASK_NAME
        self.procs: list[subprocess.Popen[bytes]] = []

    def start_worker(self, name: str) -> subprocess.Popen[bytes]:
        log = open(self.tmp / f"{name}.log", "wb")  # noqa: SIM115 (closed with the process)
        p = subprocess.Popen(
            worker_argv("cpu", name),
            env=self.env,
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.procs.append(p)
        return p

    def log(self, name: str) -> str:
        return (self.tmp / f"{name}.log").read_text(errors="replace")

    def submit(self, source: str = ACCEPTED, problem: str = "toy-add") -> int:
        with Session(self.engine) as s:
            u = User(username=f"u{uuid.uuid4().hex[:6]}", password_hash="x")
            s.add(u)
            s.commit()
            s.refresh(u)
            sub = submissions.create(
                s, u, SubmissionCreate(problem=problem, language="triton", source=source), "cpu"
            )
        assert sub.id is not None
        self.celery.send_task(self.task, args=[sub.id], queue="cpu")
        return sub.id

    def get(self, sid: int) -> Submission:
        with Session(self.engine) as s:
            sub = s.get(Submission, sid)
            assert sub is not None
            return sub

    def wait_for(
        self, sid: int, cond: Callable[[Submission], bool], timeout: float = 120
    ) -> Submission:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            sub = self.get(sid)
            if cond(sub):
                return sub
            time.sleep(0.1)
        raise AssertionError(
            f"timed out; submission is {self.get(sid)!r}; logs: {[p.args for p in self.procs]}"
        )

    def close(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait(5)
        import redis

        r = redis.Redis.from_url(REDIS_URL)
        keys = list(r.scan_iter(f"{self.env['REDIS_PREFIX']}*"))
        if keys:
            r.delete(*keys)
        self.engine.dispose()
        if self.pg_schema:
            import sqlalchemy as sa

            with sa.create_engine(PG_URL).begin() as c:
                c.execute(sa.text(f'DROP SCHEMA "{self.pg_schema}" CASCADE'))


@pytest.fixture
def stack_factory(tmp_path: Path) -> Iterator[Callable[..., Stack]]:
    made: list[Stack] = []

    def make(stuck_after_s: float = 120, database: str = "sqlite") -> Stack:
        s = Stack(tmp_path, stuck_after_s, database)
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()
