"""The playground's life cycle on the web's side: create (checked, rate-limited), claim,
progress, record; and ``enqueue`` on the grading queue under its own task name.

A playground run is not a submission: it lives in its own table (``PlaygroundRun``), which no
leaderboard, statistic or attempt count reads, and is kept ``KEEP`` only. It goes to the same
queue and worker as gradings (one at a time per GPU), at the priority of a Run.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, timedelta
from typing import Any

from sqlalchemy import delete, update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, func, select

from app.models import PlaygroundCreate, PlaygroundRun, Status, User, utcnow
from app.submissions import SubmissionError
from judge import languages, playcase
from judge.problem.schema import Problem

TASK_NAME = "kerneldojo.playground"
KEEP = timedelta(days=1)
# A run not done this long after it was queued had its worker stop under it (the task is not
# run twice: ``claim``): the page is told so rather than left polling.
STALE = timedelta(minutes=15)
STALE_MESSAGE = "This run did not finish: the worker stopped while it ran. Run it again."

Enqueue = Callable[[int, str], None]


def enqueue(run_id: int, gpu_kind: str) -> None:
    """Put a playground run's id on its GPU kind's queue, at the priority of a Run."""
    from app.queue import celery, priority

    celery.send_task(TASK_NAME, args=[run_id], queue=gpu_kind, priority=priority("run"))


def create(
    session: Session,
    user: User,
    problem: Problem | None,
    data: PlaygroundCreate,
    gpu_kinds: list[str],
    max_bytes: int,
    per_minute: int | None,
) -> PlaygroundRun:
    """Check the learner's case (judge/playcase.py) and store the run; ``SubmissionError``
    (with its HTTP status) when it cannot be run or the learner ran too many this minute."""
    if problem is None:
        raise SubmissionError("no such problem", 404)
    if languages.get(data.language) is None:
        raise SubmissionError(f"unknown language {data.language!r}")
    if not data.source.strip():
        raise SubmissionError("the source is empty")
    if len(data.source.encode()) > max_bytes:
        raise SubmissionError(f"the source is larger than {max_bytes} bytes", 413)
    kind = data.gpu_kind or gpu_kinds[0]
    if kind not in gpu_kinds:
        raise SubmissionError(f"unknown GPU kind {kind!r}; this server has {', '.join(gpu_kinds)}")
    device = "cpu" if kind == "cpu" else "cuda"
    try:
        case = playcase.check(problem, data.params, data.seed, data.literals, device, data.language)
    except playcase.PlaygroundError as e:
        raise SubmissionError(str(e)) from e
    assert user.id is not None
    # As submissions.create: the lock on the user's row makes count-then-insert one step.
    session.execute(update(User).where(col(User.id) == user.id).values(id=User.id))
    session.execute(delete(PlaygroundRun).where(col(PlaygroundRun.created_at) < utcnow() - KEEP))
    if per_minute is not None:
        n = session.exec(
            select(func.count())
            .select_from(PlaygroundRun)
            .where(
                PlaygroundRun.user_id == user.id,
                col(PlaygroundRun.created_at) >= utcnow() - timedelta(minutes=1),
            )
        ).one()
        if n >= per_minute:
            session.rollback()
            raise SubmissionError(
                f"too many playground runs: at most {per_minute} a minute; wait a little", 429
            )
    request = {"params": case.params, "seed": data.seed, "literals": data.literals}
    run = PlaygroundRun(
        user_id=user.id,
        problem=problem.slug,
        language=data.language,
        gpu_kind=kind,
        source=data.source,
        request_json=json.dumps(request),
    )
    session.add(run)
    session.commit()
    session.refresh(run)
    return run


def shown_result(run: PlaygroundRun) -> tuple[str, dict[str, Any] | None]:
    """The status and result the learner sees: a stale run is reported as ended."""
    created = run.created_at if run.created_at.tzinfo else run.created_at.replace(tzinfo=UTC)
    if run.status != Status.DONE and utcnow() - created > STALE:
        return Status.DONE, {"verdict": "internal_error", "message": STALE_MESSAGE, "cases": []}
    return run.status, run.result


def claim(eng: Engine, run_id: int) -> bool:
    """Queued to running, once: a message delivered twice runs it once."""
    t = PlaygroundRun.__table__  # type: ignore[attr-defined]
    with eng.begin() as conn:
        res = conn.execute(
            update(t)
            .where(t.c.id == run_id, t.c.status == Status.QUEUED)
            .values(status=Status.RUNNING)
        )
    return bool(res.rowcount)


def report_progress(eng: Engine, run_id: int, event: dict[str, Any]) -> None:
    stage = str(event.get("stage", ""))[:32]
    t = PlaygroundRun.__table__  # type: ignore[attr-defined]
    with eng.begin() as conn:
        conn.execute(update(t).where(t.c.id == run_id).values(stage=stage))


def record(eng: Engine, run_id: int, result: dict[str, Any]) -> None:
    t = PlaygroundRun.__table__  # type: ignore[attr-defined]
    with eng.begin() as conn:
        conn.execute(
            update(t)
            .where(t.c.id == run_id)
            .values(
                status=Status.DONE,
                stage="done",
                result_json=json.dumps(result),
                finished_at=utcnow(),
            )
        )
