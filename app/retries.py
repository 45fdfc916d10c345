"""The retry cap: a submission whose grading keeps dying ends as ``internal_error``.

Every claim counts a try (``Submission.tries``, reset when a person queues it again: a
submission or a rejudge). A grading process killed mid-grading (out of memory, a crash of the
machine, a submission that takes the worker down) makes Celery re-deliver the task, and the
sweeper re-queues a row whose worker went silent; without a cap a submission that kills its
grader every time looped forever. After ``MAX_TRIES`` the next claim gives up instead: the row
is finished as ``internal_error`` with a message for the learner and, under
``result["internal"]``, the reason for admins (``app/visibility.py`` keeps it from learners).
"""

from __future__ import annotations

import json
import logging

from sqlalchemy import or_, update
from sqlalchemy import select as core_select
from sqlalchemy.engine import Engine
from sqlalchemy.sql.elements import ColumnElement

from app.models import Status, Submission, utcnow

log = logging.getLogger(__name__)
MAX_TRIES = 3
GAVE_UP_MESSAGE = (
    f"The judge could not finish grading this submission: its grading process was lost "
    f"{MAX_TRIES} times in a row. This can be the judge's fault or a submission that brings "
    "the grader down; an instructor can see why and rejudge it."
)


def claimable(t: object, stale: object, takeover: str | None) -> ColumnElement[bool]:
    """Queued, or running under a claim that is stale or whose process is known dead."""
    c = t.c  # type: ignore[attr-defined]
    running = c.status == Status.RUNNING
    cond = or_(c.status == Status.QUEUED, running & (c.heartbeat_at < stale))
    if takeover:
        cond = or_(cond, running & (c.worker == takeover))
    return cond


def give_up(engine: Engine, sub_id: int, stale: object, takeover: str | None) -> bool:
    """Finish a claimable row that has used up its tries; True if this call finished it."""
    t = Submission.__table__  # type: ignore[attr-defined]
    with engine.begin() as conn:
        row = conn.execute(
            core_select(t.c.tries, t.c.worker, t.c.problem, t.c.language, t.c.gpu_kind).where(
                t.c.id == sub_id, t.c.tries >= MAX_TRIES, claimable(t, stale, takeover)
            )
        ).first()
        if row is None:
            return False
        reason = (
            f"gave up after {row.tries} tries: each grading process died or went silent before "
            f"recording a result (the last was {row.worker or 'unknown'}); see that worker's "
            f"log for submission {sub_id}"
        )
        result = {
            "verdict": "internal_error",
            "problem": row.problem,
            "language": row.language,
            "device": row.gpu_kind,
            "message": GAVE_UP_MESSAGE,
            "learner_message": GAVE_UP_MESSAGE,
            "internal": reason,
            "cases": [],
            "benchmark": [],
            "score_ms": None,
        }
        res = conn.execute(
            update(t)
            .where(t.c.id == sub_id, t.c.tries >= MAX_TRIES, claimable(t, stale, takeover))
            .values(
                status=Status.DONE,
                verdict="internal_error",
                message=GAVE_UP_MESSAGE,
                score_ms=None,
                result_json=json.dumps(result),
                finished_at=utcnow(),
                progress_json=json.dumps({"stage": "done", "verdict": "internal_error"}),
            )
        )
    if res.rowcount == 1:
        log.error("submission %s: %s", sub_id, reason)
        return True
    return False
