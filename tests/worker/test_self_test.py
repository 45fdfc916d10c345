"""A worker in a broken environment (#41): a real Celery worker whose numba's import raises inside
the library starts, its self-test marks Numba unavailable in its report, and a Numba submission
that reaches it is answered "not available" (counting for nothing), never runtime_error; the
other languages are graded as before. On SQLite and PostgreSQL, Redis as the broker."""

from __future__ import annotations

import os
import socket
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlmodel import Session

from app import submissions, workers
from app.models import Status, SubmissionCreate, User, WorkerReport
from tests.broken_env import ERROR, broken_package
from tests.worker.conftest import ACCEPTED, Stack

pytestmark = pytest.mark.timeout(300)

NUMBA = """from numba import cuda


@cuda.jit
def add(a, b, c, n):
    i = cuda.grid(1)
    if i < n:
        c[i] = a[i] + b[i]


def solve(a, b, c, n):
    add[(n + 255) // 256, 256](a, b, c, n)
"""


def _submit(st: Stack, language: str, source: str) -> int:
    """Straight to the worker's queue, past the web app's own check (app/workers.py): the
    worker's check is what is tested here."""
    with Session(st.engine) as s:
        u = User(username=f"u{uuid.uuid4().hex[:6]}", password_hash="x")
        s.add(u)
        s.commit()
        s.refresh(u)
        data = SubmissionCreate(problem="toy-add", language=language, source=source)
        sub = submissions.create(s, u, data, "cpu")
    assert sub.id is not None
    st.celery.send_task(st.task, args=[sub.id], queue="cpu")
    return sub.id


def _report(st: Stack, name: str, cond: Callable[[WorkerReport], bool]) -> WorkerReport:
    end = time.monotonic() + 180
    while time.monotonic() < end:
        with Session(st.engine) as s:
            row = s.get(WorkerReport, name)
            if row is not None and cond(row):
                return row
        time.sleep(0.3)
    raise AssertionError(f"no such report of {name}; log:\n{st.log('broken')[-3000:]}")


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_worker_with_a_broken_numba_answers_not_available(
    stack_factory: Callable[..., Stack], tmp_path: Path, database: str
) -> None:
    st = stack_factory(database=database)
    site = broken_package(tmp_path / "env")
    st.env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(site), os.environ.get("PYTHONPATH", "")) if p
    )
    st.env["KERNELDOJO_SELF_TEST"] = "numba"  # the one broken here; the others are not tested
    st.start_worker("broken")
    row = _report(
        st,
        f"broken@{socket.gethostname()}",
        lambda r: r.languages.get("numba", {}).get("status") == "unavailable",
    )
    numba = row.languages["numba"]
    assert ERROR in numba["error"] and "numba/_core.py" in numba["error"], numba
    assert str(tmp_path) not in numba["error"] and "site-packages" not in numba["error"]
    assert row.environment.get("packages", {}).get("torch"), row.environment
    assert _report(st, row.name, lambda r: r.checked_at is not None)  # the self-test ended

    sid = _submit(st, "numba", NUMBA)
    sub = st.wait_for(sid, lambda s: s.status == Status.DONE)
    assert sub.verdict == "unavailable", sub.result_json
    assert "Numba is not available on this server's GPU workers right now" in sub.message
    res = sub.result or {}
    assert ERROR in res["internal"] and res["cases"] == []

    # Triton was not tested: it counts as available, and is graded.
    sid = _submit(st, "triton", ACCEPTED)
    assert st.wait_for(sid, lambda s: s.status == Status.DONE).verdict == "accepted"

    # The web app reads the same report: no live cpu worker can grade Numba.
    with Session(st.engine) as s:
        assert workers.unavailable(s, ["cpu"])["cpu"] == {"numba": numba["error"]}
    log = st.log("broken")
    assert "runtime_error" not in log and "Traceback" not in log
