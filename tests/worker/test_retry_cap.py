"""A killed grading process (issue 18, point 13): its re-delivered task is taken over at once,
not after STUCK_AFTER_S, and after three lost gradings the submission ends as internal_error
while the worker keeps serving."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable

import pytest

from app import retries
from app.models import Status, Submission
from tests.worker.conftest import ACCEPTED, SLOW, Stack

pytestmark = pytest.mark.timeout(300)


def test_killed_grading_processes_are_retried_promptly_then_given_up(
    stack_factory: Callable[..., Stack],
) -> None:
    st = stack_factory(stuck_after_s=600)  # the sweeper's route would take ten minutes
    parent = st.start_worker("w1")
    sid = st.submit(SLOW)
    for n in range(1, retries.MAX_TRIES + 1):
        t0 = time.monotonic()

        def claimed(s: Submission, n: int = n) -> bool:
            return s.status == Status.RUNNING and s.attempt == n

        sub = st.wait_for(sid, claimed, timeout=120)
        if n > 1:
            assert time.monotonic() - t0 < 60, "the re-delivered task waited for the sweeper"
        child = int((sub.worker or "").rpartition("/")[2].partition(".")[0])  # <pid>.<here>
        assert child != parent.pid
        os.kill(child, signal.SIGKILL)  # the grading process only; the worker's parent lives
    sub = st.wait_for(sid, lambda s: s.status == Status.DONE, timeout=60)
    assert (sub.verdict, sub.tries, sub.attempt) == ("internal_error", 3, 3)
    assert sub.message == retries.GAVE_UP_MESSAGE
    assert "gave up after 3 tries" in (sub.result or {})["internal"]
    # The worker survives and grades the next submission.
    assert parent.poll() is None
    nxt = st.submit(ACCEPTED)
    assert st.wait_for(nxt, lambda s: s.status == Status.DONE).verdict == "accepted"
