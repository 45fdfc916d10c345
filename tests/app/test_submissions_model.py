"""The submission life cycle in the database: claim, progress, exactly-once recording, sweep."""

from __future__ import annotations

import time

from sqlalchemy.engine import Engine
from sqlmodel import Session

from app import submissions
from app.models import Status, Submission
from tests import factories
from tests.app.conftest import Queue


def _sub(engine: Engine, name: str = "u1") -> int:
    return factories.submission(engine, name)


def _get(engine: Engine, sid: int) -> Submission:
    with Session(engine) as s:
        sub = s.get(Submission, sid)
        assert sub is not None
        return sub


def test_claim_progress_record_once(engine: Engine) -> None:
    sid = _sub(engine)
    a1 = submissions.claim(engine, sid, "w1", stale_s=60)
    assert a1 == 1
    assert submissions.claim(engine, sid, "w2", stale_s=60) is None  # already running, fresh
    assert submissions.report_progress(
        engine, sid, a1, {"stage": "testing", "index": 1, "total": 2}
    )
    assert _get(engine, sid).progress == {"stage": "testing", "index": 1, "total": 2}
    assert submissions.record(engine, sid, a1, {"verdict": "accepted", "score_ms": 1.5})
    assert not submissions.record(engine, sid, a1, {"verdict": "wrong_answer"})  # never twice
    sub = _get(engine, sid)
    assert (sub.status, sub.verdict, sub.score_ms, sub.attempt) == (Status.DONE, "accepted", 1.5, 1)
    assert submissions.claim(engine, sid, "w3", stale_s=0) is None  # done stays done


def test_dead_worker_is_replaced_and_its_late_result_discarded(engine: Engine) -> None:
    sid = _sub(engine)
    old = submissions.claim(engine, sid, "dead", stale_s=60)
    assert old == 1
    time.sleep(0.05)
    sent = Queue()
    assert submissions.sweep(engine, 0.01, sent) == [sid]
    assert sent.requeued == [sid]  # sent at the re-queue priority (app/queue.py)
    assert _get(engine, sid).status == Status.QUEUED
    new = submissions.claim(engine, sid, "alive", stale_s=60)
    assert new == 2
    assert not submissions.report_progress(engine, sid, old, {"stage": "testing"})
    assert not submissions.record(engine, sid, old, {"verdict": "wrong_answer"})
    assert submissions.record(engine, sid, new, {"verdict": "accepted"})
    assert _get(engine, sid).verdict == "accepted"


def test_sweep_resends_old_queued_and_leaves_fresh_ones(engine: Engine) -> None:
    sid = _sub(engine)
    sent: list[tuple[int, str]] = []
    assert submissions.sweep(engine, 60, lambda i, k, m, requeued=False: sent.append((i, k))) == []
    time.sleep(0.05)
    assert submissions.sweep(engine, 0.01, lambda i, k, m, requeued=False: sent.append((i, k))) == [
        sid
    ]
    assert sent == [(sid, "cpu")]


def test_queue_position(engine: Engine) -> None:
    a, b = _sub(engine, "u1"), _sub(engine, "u2")
    with Session(engine) as s:
        sa, sb = s.get(Submission, a), s.get(Submission, b)
        assert sa and sb
        assert (submissions.queue_position(s, sa), submissions.queue_position(s, sb)) == (1, 2)
    submissions.claim(engine, a, "w", 60)
    with Session(engine) as s:
        sa, sb = s.get(Submission, a), s.get(Submission, b)
        assert sa and sb
        assert (submissions.queue_position(s, sa), submissions.queue_position(s, sb)) == (None, 1)


def test_sweep_spaces_resends_of_waiting_rows(engine: Engine) -> None:
    sid = _sub(engine)
    time.sleep(0.05)
    sent: list[tuple[int, str]] = []
    assert (
        submissions.sweep(
            engine, 0.01, lambda i, k, m, requeued=False: sent.append((i, k)), resend_after_s=60
        )
        == []
    )
    assert submissions.sweep(
        engine, 0.01, lambda i, k, m, requeued=False: sent.append((i, k)), resend_after_s=0.01
    ) == [sid]
    assert (
        submissions.sweep(
            engine, 60, lambda i, k, m, requeued=False: sent.append((i, k)), resend_after_s=60
        )
        == []
    )
    assert sent == [(sid, "cpu")]
