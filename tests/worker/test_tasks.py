"""End to end through the queue: a real Celery worker, the real Redis, the real grader (CPU
interpreter); and a worker killed mid-grading, whose submission still gets exactly one result."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable

import pytest

from app.models import Status
from tests.worker.conftest import SLOW, Stack

pytestmark = pytest.mark.timeout(240)


def test_worker_grades_a_triton_submission(stack_factory: Callable[..., Stack]) -> None:
    """The deployment's shape: PostgreSQL, Redis, a worker on the `cpu` queue."""
    st = stack_factory(database="postgresql")
    st.start_worker("w1")
    sid = st.submit()
    seen = set()
    sub = st.wait_for(
        sid, lambda s: (seen.add((s.progress or {}).get("stage")), s.status == Status.DONE)[1]
    )
    assert sub.verdict == "accepted", sub.result_json
    assert sub.attempt == 1
    res = sub.result or {}
    assert res["device"] == "cpu-interpreter" and all(c["passed"] for c in res["cases"])
    assert "testing" in seen or "compiling" in seen or "starting" in seen
    assert f"submission {sid}: claimed (attempt 1)" in st.log("w1")
    assert f"submission {sid}: accepted" in st.log("w1")


def test_worker_killed_mid_grading_gets_exactly_one_result(
    stack_factory: Callable[..., Stack],
) -> None:
    st = stack_factory(stuck_after_s=3)
    first = st.start_worker("doomed")
    sid = st.submit(SLOW)
    st.wait_for(sid, lambda s: s.status == Status.RUNNING, timeout=90)
    os.killpg(first.pid, signal.SIGKILL)  # the worker and everything it started, mid-grading
    first.wait(10)
    sub = st.get(sid)
    assert sub.status == Status.RUNNING and sub.attempt == 1  # nobody recorded anything
    time.sleep(3.5)  # let its claim go stale
    st.start_worker("rescuer")
    sub = st.wait_for(sid, lambda s: s.status == Status.DONE)
    assert sub.verdict == "accepted" and sub.attempt == 2
    time.sleep(6)  # Redis re-delivers the dead worker's unacknowledged task: it must not regrade
    again = st.get(sid)
    assert (again.attempt, again.finished_at, again.verdict) == (2, sub.finished_at, "accepted")
    log = st.log("rescuer")
    assert log.count(f"submission {sid}: claimed") == 1
    assert f"submission {sid}: accepted" in log
