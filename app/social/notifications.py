"""In-app notifications: "a reply to your comment" and "your record on <problem> was beaten".

A record is the top of a problem's board on one GPU kind and track (app/stats.py's ranking:
the fastest ``score_ms``). When a submission's result is recorded (app/submissions.py:record)
``after_record`` looks at the board without it: if it beats that board's holder, another
learner, they are told. Untimed boards (the CPU interpreter's) rank the earliest acceptance
first, so nothing recorded later beats anyone there.
"""

from __future__ import annotations

import logging

from sqlalchemy import func, update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.models import Mode, Status, Submission, User, utcnow
from app.social.models import Notification
from judge import languages

log = logging.getLogger(__name__)

REPLY = "reply"
RECORD_BEATEN = "record"
SHOWN = 50  # the newest ones on the notifications page and in the API


def notify(session: Session, user_id: int, kind: str, text: str, link: str) -> None:
    """Adds one notification (committed by the caller)."""
    session.add(Notification(user_id=user_id, kind=kind, text=text[:300], link=link[:200]))


def unread_count(session: Session, user_id: int) -> int:
    n = session.exec(
        select(func.count())
        .select_from(Notification)
        .where(col(Notification.user_id) == user_id, col(Notification.read_at).is_(None))
    ).one()
    return int(n)


def latest(session: Session, user_id: int, limit: int = SHOWN) -> list[Notification]:
    return list(
        session.exec(
            select(Notification)
            .where(col(Notification.user_id) == user_id)
            .order_by(col(Notification.id).desc())
            .limit(limit)
        ).all()
    )


def mark_read(session: Session, user_id: int, ids: list[int] | None = None) -> int:
    """Marks the user's unread notifications read (only ``ids`` when given); how many."""
    stmt = update(Notification).where(
        col(Notification.user_id) == user_id, col(Notification.read_at).is_(None)
    )
    if ids is not None:
        stmt = stmt.where(col(Notification.id).in_(ids))
    n = session.execute(stmt.values(read_at=utcnow())).rowcount  # type: ignore[attr-defined]
    session.commit()
    return int(n or 0)


def _fmt(ms: float) -> str:
    return f"{ms:.3f} ms" if ms >= 1 else f"{ms * 1000:.1f} µs"


def after_record(engine: Engine, sub_id: int) -> None:
    """Tells the holder of the record this submission beat, if it beat one. Never raises: a
    notification lost is not worth a result lost (the caller has already written it)."""
    try:
        with Session(engine) as session:
            _after_record(session, sub_id)
    except Exception:
        log.exception("submission %s: the record-beaten notification failed", sub_id)


def _after_record(session: Session, sub_id: int) -> None:
    sub = session.get(Submission, sub_id)
    if (
        sub is None
        or sub.verdict != "accepted"
        or sub.mode != Mode.SUBMIT
        or sub.hidden
        or sub.score_ms is None
    ):
        return
    lang = languages.get(sub.language)
    track = lang.track if lang is not None else "kernel"
    same_track = [x.name for x in languages.all() if x.track == track]
    best = session.exec(
        select(Submission.user_id, Submission.score_ms)
        .where(
            col(Submission.problem) == sub.problem,
            col(Submission.gpu_kind) == sub.gpu_kind,
            col(Submission.language).in_(same_track),
            col(Submission.mode) == Mode.SUBMIT,
            col(Submission.verdict) == "accepted",
            col(Submission.status) == Status.DONE,
            col(Submission.hidden).is_(False),
            col(Submission.score_ms).is_not(None),
            col(Submission.id) != sub_id,
        )
        .order_by(col(Submission.score_ms), col(Submission.finished_at))
        .limit(1)
    ).first()
    if best is None:
        return
    holder, record_ms = best
    if holder == sub.user_id or record_ms is None or sub.score_ms >= record_ms:
        return
    who = session.get(User, sub.user_id)
    name = who.username if who else "someone"
    notify(
        session,
        holder,
        RECORD_BEATEN,
        f"Your record on {sub.problem} ({sub.gpu_kind.upper()}, {track} track) was beaten: "
        f"{name} ran it in {_fmt(sub.score_ms)}, yours {_fmt(record_ms)}.",
        f"/leaderboard/{sub.problem}?gpu={sub.gpu_kind}&track={track}",
    )
    session.commit()
