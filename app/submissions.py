"""Submission life cycle: create (validated, rate-limited), claim, progress, record, sweep.

Exactly-once recording: a worker *claims* a row with a conditional UPDATE that bumps
``attempt``; progress and the result are written only ``WHERE attempt = <its claim>`` and
``status = 'running'``. A worker that died (or was re-queued by the sweeper while it was slow)
therefore cannot overwrite the result of the claim that replaced it.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, update
from sqlalchemy import select as core_select
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app import retries
from app.compete import rating
from app.core.inputs import clean_text
from app.models import Mode, Status, Submission, SubmissionCreate, User, utcnow
from app.queue import Enqueue
from app.social import notifications
from judge import languages
from judge.problem.schema import Problem

log = logging.getLogger(__name__)


class SubmissionError(ValueError):
    """Bad input; ``status`` is the HTTP status the API answers with."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.status = status


def validate(
    data: SubmissionCreate, problem: Problem | None, gpu_kinds: list[str], max_bytes: int
) -> str:
    """Check a submission's input; return the GPU kind (queue) it goes to."""
    if problem is None:
        raise SubmissionError(f"unknown problem {data.problem!r}", 404)
    if languages.get(data.language) is None:
        raise SubmissionError(
            f"unknown language {data.language!r}; use one of {', '.join(languages.names())}"
        )
    if not data.source.strip():
        raise SubmissionError("the source is empty")
    size = len(data.source.encode("utf-8"))
    if size > max_bytes:
        raise SubmissionError(f"the source is {size} bytes; the limit is {max_bytes}", 413)
    kind = data.gpu_kind or gpu_kinds[0]
    if kind not in gpu_kinds:
        raise SubmissionError(f"unknown GPU kind {kind!r}; this server has {', '.join(gpu_kinds)}")
    if data.mode == Mode.PROFILE and kind == "cpu":
        raise SubmissionError(
            "profiling is not enabled on this worker: Nsight Compute needs a GPU, and this "
            "server grades on the CPU (Run and Submit still work)"
        )
    return kind


def create(
    session: Session,
    user: User,
    data: SubmissionCreate,
    gpu_kind: str,
    per_minute: int | None = None,
) -> Submission:
    """Store a submission; with ``per_minute``, refuse one over the user's per-minute limit.

    Counting and inserting happen in one transaction that starts by writing the user's row:
    PostgreSQL holds that row lock until the commit, SQLite its single writer lock, so a
    second request of the same user waits and then counts the first one's row. (A count
    followed by an insert in separate steps let 30 concurrent requests through 12 at a time
    against a limit of 10.)
    """
    assert user.id is not None
    if per_minute is not None or data.mode == Mode.PROFILE:
        session.execute(update(User).where(col(User.id) == user.id).values(id=User.id))
    if data.mode == Mode.PROFILE and _profile_in_flight(session, user.id):
        session.rollback()
        raise SubmissionError(
            "you already have a profile queued or running: one at a time; open it from your "
            "submissions, and profile again once it is done",
            429,
        )
    if per_minute is not None:
        since = utcnow() - timedelta(minutes=1)
        n = session.exec(
            select(func.count())
            .select_from(Submission)
            .where(Submission.user_id == user.id, col(Submission.created_at) >= since)
        ).one()
        if n >= per_minute:
            session.rollback()
            raise SubmissionError(
                f"too many submissions: at most {per_minute} a minute; wait a little", 429
            )
    sub = Submission(
        user_id=user.id,
        problem=data.problem,
        language=data.language,
        mode=str(data.mode),
        gpu_kind=gpu_kind,
        source=data.source,
    )
    session.add(sub)
    session.commit()
    session.refresh(sub)
    return sub


def _profile_in_flight(session: Session, user_id: int) -> bool:
    """Whether the user has a profile not yet done (after the lock on their row: see create)."""
    return (
        session.exec(
            select(func.count())
            .select_from(Submission)
            .where(
                Submission.user_id == user_id,
                Submission.mode == Mode.PROFILE,
                col(Submission.status).in_([Status.QUEUED, Status.RUNNING]),
            )
        ).one()
        > 0
    )


def send(engine: Engine, enqueue: Enqueue, sub_id: int, gpu_kind: str, mode: str) -> bool:
    """Put a stored submission's id on its queue; False when the broker is unreachable.

    The row stays ``queued``, dated as if sent long ago, so that the sweeper's next pass (every
    SWEEP_EVERY_S) sends it once the broker is back: the learner need not submit again.
    """
    try:
        enqueue(sub_id, gpu_kind, mode)
        return True
    except Exception:
        log.warning("submission %s: the broker is unreachable; the sweeper will send it", sub_id)
        t = Submission.__table__  # type: ignore[attr-defined]
        with engine.begin() as conn:
            conn.execute(
                update(t)
                .where(t.c.id == sub_id, t.c.status == Status.QUEUED)
                .values(enqueued_at=datetime(1970, 1, 1, tzinfo=UTC))
            )
        return False


def queue_position(session: Session, sub: Submission) -> int | None:
    if sub.status != Status.QUEUED:
        return None
    ahead = session.exec(
        select(func.count())
        .select_from(Submission)
        .where(
            Submission.status == Status.QUEUED,
            Submission.gpu_kind == sub.gpu_kind,
            col(Submission.id) < sub.id,
        )
    ).one()
    return int(ahead) + 1


# --- the worker's side -------------------------------------------------------------------


def claim(
    engine: Engine, sub_id: int, worker: str, stale_s: float, takeover: str | None = None
) -> int | None:
    """Take a queued row (or one whose claimer went silent); return the new attempt number.

    ``takeover``: a claimer known to be dead (a grading process of this worker that was
    killed: ``worker/tasks.py``), whose row is taken at once rather than after ``stale_s``.
    A row that has used up its tries is finished as ``internal_error`` instead (``retries``).
    """
    now = utcnow()
    stale = now - timedelta(seconds=stale_s)
    t = Submission.__table__  # type: ignore[attr-defined]
    with engine.begin() as conn:
        res = conn.execute(
            update(t)
            .where(
                t.c.id == sub_id,
                t.c.tries < retries.MAX_TRIES,
                retries.claimable(t, stale, takeover),
            )
            .values(
                status=Status.RUNNING,
                attempt=t.c.attempt + 1,
                tries=t.c.tries + 1,
                started_at=now,
                heartbeat_at=now,
                worker=worker,
                progress_json=json.dumps({"stage": "starting"}),
            )
        )
        if res.rowcount == 1:
            return int(conn.execute(core_select(t.c.attempt).where(t.c.id == sub_id)).scalar_one())
    retries.give_up(engine, sub_id, stale, takeover)
    return None


def report_progress(engine: Engine, sub_id: int, attempt: int, event: dict[str, Any]) -> bool:
    """Store the latest progress event (and a heartbeat); False if this claim is no longer current."""
    t = Submission.__table__  # type: ignore[attr-defined]
    with engine.begin() as conn:
        res = conn.execute(
            update(t)
            .where(
                t.c.id == sub_id,
                t.c.attempt == attempt,
                t.c.status == Status.RUNNING,
            )
            .values(progress_json=json.dumps(event), heartbeat_at=utcnow())
        )
    return res.rowcount == 1


def record(engine: Engine, sub_id: int, attempt: int, result: dict[str, Any]) -> bool:
    """Write the result once; False (and nothing written) if this claim was superseded."""
    t = Submission.__table__  # type: ignore[attr-defined]
    with engine.begin() as conn:
        res = conn.execute(
            update(t)
            .where(
                t.c.id == sub_id,
                t.c.attempt == attempt,
                t.c.status == Status.RUNNING,
            )
            .values(
                status=Status.DONE,
                verdict=str(result.get("verdict")),
                message=clean_text(str(result.get("message") or ""))[:2000],
                score_ms=result.get("score_ms"),
                result_json=json.dumps(result),
                finished_at=utcnow(),
                progress_json=json.dumps({"stage": "done", "verdict": result.get("verdict")}),
            )
        )
    if res.rowcount == 1 and result.get("score_ms") is not None:
        notifications.after_record(engine, sub_id)  # a record beaten tells its holder
    if res.rowcount == 1 and result.get("verdict") == "accepted":
        rating.after_record(engine, sub_id)  # the boards moved: the ratings follow
    return res.rowcount == 1


def sweep(
    engine: Engine,
    stuck_after_s: float,
    enqueue: Enqueue,
    resend_after_s: float | None = None,
) -> list[int]:
    """Re-queue rows stuck in ``running`` (silent worker) and re-send long-``queued`` ones
    (their message may be lost with a Redis that restarted without its data).

    Re-sending is harmless: a duplicate message finds the row already claimed or done.
    ``resend_after_s`` (default ``stuck_after_s``) spaces the re-sends of a row that is merely
    waiting behind a long queue, so duplicates do not pile up.
    """
    now = utcnow()
    cutoff = now - timedelta(seconds=stuck_after_s)
    resend_cutoff = now - timedelta(
        seconds=stuck_after_s if resend_after_s is None else resend_after_s
    )
    t = Submission.__table__  # type: ignore[attr-defined]
    with engine.begin() as conn:
        stuck = (
            conn.execute(
                core_select(t.c.id).where(t.c.status == Status.RUNNING, t.c.heartbeat_at < cutoff)
            )
            .scalars()
            .all()
        )
        if stuck:
            conn.execute(
                update(t)
                .where(t.c.id.in_(stuck), t.c.status == Status.RUNNING)
                .values(
                    status=Status.QUEUED,
                    enqueued_at=resend_cutoff,  # re-sent just below
                    progress_json=json.dumps({"stage": "requeued"}),
                )
            )
        rows = conn.execute(
            core_select(t.c.id, t.c.gpu_kind, t.c.mode).where(
                t.c.status == Status.QUEUED, t.c.enqueued_at <= resend_cutoff
            )
        ).all()
        if rows:
            conn.execute(update(t).where(t.c.id.in_([r.id for r in rows])).values(enqueued_at=now))
    for r in rows:
        log.warning("submission %s: re-queued on %s by the sweeper", r.id, r.gpu_kind)
        enqueue(r.id, r.gpu_kind, r.mode, requeued=True)
    return [r.id for r in rows]


def requeue(session: Session, sub: Submission) -> None:
    """Rejudge: back to queued with a fresh attempt; the old result is kept until replaced."""
    sub.status = Status.QUEUED
    sub.attempt += 1  # invalidates any worker still busy with the previous claim
    sub.tries = 0  # a person asked for it: the retry cap starts again
    sub.enqueued_at = utcnow()
    sub.progress_json = json.dumps({"stage": "queued"})
    session.add(sub)
    session.commit()
