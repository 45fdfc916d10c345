"""What happens to contests at their times: the reminder, the final re-run, the reveal.

``tick`` runs with the web app's sweeper (every SWEEP_EVERY_S) and whenever a contest's page,
board or stream is read, so that nothing waits for the next sweep. Each step is claimed by a
conditional UPDATE of its column (``reminded_at``, ``rerun_at``, ``revealed_at``) from NULL, so
two web processes never send a reminder twice or queue the re-run twice.

The final re-run copies every live contestant's best accepted submission per problem (the one
the unfrozen board counts) into a new submission, hidden from boards and statistics, and sends
it through the grading queue like any other: the judge draws fresh inputs from a new secret
seed for every grading. Once every re-run grading is done the board is revealed.
"""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app import submissions
from app.classes import service as classes
from app.compete import contests, standings
from app.compete.models import Contest, ContestEntry, ContestRerun
from app.models import Mode, Status, Submission, utcnow
from app.queue import Enqueue
from app.social import notifications

log = logging.getLogger(__name__)

REMIND_BEFORE = contests.REMIND_BEFORE
CONTEST_STARTS = contests.CONTEST_STARTS
CONTEST_RESULTS = contests.CONTEST_RESULTS


def _claim(engine: Engine, contest_id: int, column: str, now: datetime) -> bool:
    t = Contest.__table__  # type: ignore[attr-defined]
    with engine.begin() as conn:
        res = conn.execute(
            update(t).where(t.c.id == contest_id, t.c[column].is_(None)).values({column: now})
        )
    return bool(res.rowcount == 1)


def tick(engine: Engine, enqueue: Enqueue, now: datetime | None = None) -> None:
    """Does every step that is due; never raises (a sweep must go on)."""
    now = now or utcnow()
    try:
        with Session(engine) as session:
            due = session.exec(
                select(Contest).where(
                    col(Contest.revealed_at).is_(None),
                    col(Contest.start_at) <= now + REMIND_BEFORE,
                )
            ).all()
            ids = [(c.id, c.reminded_at, c.rerun_at, c.rerun) for c in due]
        for cid, reminded, rerun_at, rerun in ids:
            assert cid is not None
            with Session(engine) as session:
                c = session.get(Contest, cid)
                assert c is not None
                due_reminder = reminded is None and now < contests.aware(c.start_at)
                if due_reminder and _claim(engine, cid, "reminded_at", now):
                    _remind(session, c, now)
                if now < contests.aware(c.end_at):
                    continue
                if rerun and rerun_at is None:
                    if _claim(engine, cid, "rerun_at", now):
                        _rerun(engine, session, c, enqueue)
                    continue
                if rerun and _pending(session, cid):
                    continue
                if _claim(engine, cid, "revealed_at", now):
                    session.refresh(c)
                    _announce(session, c)
    except Exception:
        log.exception("the contests' tick failed")


def _recipients(session: Session, c: Contest) -> set[int]:
    assert c.id is not None
    who = {
        e.user_id
        for e in session.exec(select(ContestEntry).where(ContestEntry.contest_id == c.id)).all()
    }
    if c.course_id is not None:
        who |= {u.id for u, _ in classes.roster(session, c.course_id) if u.id is not None}
    return who


def _remind(session: Session, c: Contest, now: datetime) -> None:
    for uid in _recipients(session, c):
        contests.remind(session, c, uid, now)
    session.commit()


def _rerun(engine: Engine, session: Session, c: Contest, enqueue: Enqueue) -> None:
    """Queues the ranked re-run of every live contestant's best accepted submissions."""
    assert c.id is not None
    board = standings.compute(session, c, full=True)
    made: list[int] = []
    for line in board.lines:
        for cell in line.cells:
            if not cell.solved or cell.submission_id is None:
                continue
            orig = session.get(Submission, cell.submission_id)
            if orig is None:
                continue
            again = Submission(
                user_id=orig.user_id,
                problem=orig.problem,
                language=orig.language,
                gpu_kind=orig.gpu_kind,
                source=orig.source,
                mode=Mode.SUBMIT,
                hidden=True,  # the re-run is the contest's, not a new entry on any board
            )
            session.add(again)
            session.flush()
            assert again.id is not None
            session.add(
                ContestRerun(
                    contest_id=c.id,
                    user_id=orig.user_id,
                    problem=orig.problem,
                    original_id=cell.submission_id,
                    rerun_id=again.id,
                )
            )
            made.append(again.id)
    session.commit()
    log.info("contest %s: final re-run of %d submissions queued", c.id, len(made))
    for sid in made:
        submissions.send(engine, enqueue, sid, c.gpu_kind, Mode.SUBMIT)


def _pending(session: Session, contest_id: int) -> bool:
    left = session.exec(
        select(Submission.id)
        .join(ContestRerun, col(ContestRerun.rerun_id) == Submission.id)
        .where(ContestRerun.contest_id == contest_id, Submission.status != Status.DONE)
        .limit(1)
    ).first()
    return left is not None


def _announce(session: Session, c: Contest) -> None:
    board = standings.compute(session, c)
    n = len(board.lines)
    for line in board.lines:
        notifications.notify(
            session,
            line.user_id,
            CONTEST_RESULTS,
            f"The results of “{c.title}” are out: you placed {line.rank} of {n} "
            f"with {line.points:.0f} points.",
            f"/contests/{c.id}",
        )
    session.commit()
