"""Contests: who creates and sees them, joining (live, late, virtual), the phase at a time.

An admin creates any contest; an instructor creates public ones and ones for the classes they
teach. A class contest is seen and joined by that class's members only (admins see all). A
learner joins up to the end (a late joiner's times still count from the start); after the end,
joining starts a *virtual* participation: the contest's length from that moment, ranked apart.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from pydantic import BaseModel, Field, field_validator
from sqlmodel import Session, col, or_, select

from app.classes import service as classes
from app.classes.models import Course, CourseMember, Role
from app.compete.models import Contest, ContestEntry, ContestProblem
from app.models import User, utcnow
from app.social import notifications

MAX_PROBLEMS = 12
MAX_LENGTH = timedelta(days=14)

UPCOMING, RUNNING, FROZEN, JUDGING, FINAL = "upcoming", "running", "frozen", "judging", "final"
REMIND_BEFORE = timedelta(minutes=10)
CONTEST_STARTS = "contest_start"  # the notifications' kinds
CONTEST_RESULTS = "contest_results"


class ContestError(ValueError):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class ContestCreate(BaseModel):
    title: str = Field(min_length=1, max_length=100)
    description: str = Field(default="", max_length=20000)
    problems: list[str] = Field(min_length=1, max_length=MAX_PROBLEMS)
    start_at: datetime
    end_at: datetime
    freeze_minutes: int = Field(default=0, ge=0, le=24 * 60)
    rerun: bool = False
    course_id: int | None = None
    gpu_kind: str | None = None

    @field_validator("start_at", "end_at")
    @classmethod
    def _aware(cls, v: datetime) -> datetime:
        return v if v.tzinfo else v.replace(tzinfo=UTC)


def aware(d: datetime) -> datetime:
    """SQLite hands datetimes back naive; they are stored in UTC."""
    return d if d.tzinfo else d.replace(tzinfo=UTC)


def may_create(user: User | None) -> bool:
    return bool(user and (user.is_admin or user.is_instructor))


def create(
    session: Session, user: User, data: ContestCreate, known: set[str], gpu_kinds: list[str]
) -> Contest:
    """Stores a contest after checking every field; ContestError with the reason otherwise."""
    assert user.id is not None
    if not may_create(user):
        raise ContestError("only admins and instructors create contests", 403)
    unknown = [p for p in data.problems if p not in known]
    if unknown:
        raise ContestError(f"unknown problem(s): {', '.join(unknown)}")
    if len(set(data.problems)) != len(data.problems):
        raise ContestError("a problem is listed twice")
    if data.end_at <= data.start_at:
        raise ContestError("the end must come after the start")
    if data.end_at - data.start_at > MAX_LENGTH:
        raise ContestError(f"a contest lasts at most {MAX_LENGTH.days} days")
    if data.end_at <= utcnow():
        raise ContestError("the end is already past")
    length_min = (data.end_at - data.start_at).total_seconds() / 60
    if data.freeze_minutes >= length_min:
        raise ContestError("the board cannot be frozen for the whole contest")
    kind = data.gpu_kind or gpu_kinds[0]
    if kind not in gpu_kinds:
        raise ContestError(f"unknown GPU kind {kind!r}; this server has {', '.join(gpu_kinds)}")
    if data.course_id is not None:
        course = session.get(Course, data.course_id)
        if course is None or not classes.can_manage(session, user, course):
            raise ContestError("there is no such class, or you do not teach it", 404)
    c = Contest(
        title=data.title.strip(),
        description=data.description,
        start_at=data.start_at,
        end_at=data.end_at,
        freeze_minutes=data.freeze_minutes,
        rerun=data.rerun,
        course_id=data.course_id,
        gpu_kind=kind,
        created_by=user.id,
    )
    session.add(c)
    session.flush()
    assert c.id is not None
    for i, p in enumerate(data.problems):
        session.add(ContestProblem(contest_id=c.id, problem=p, position=i))
    session.commit()
    session.refresh(c)
    return c


def can_view(session: Session, user: User | None, c: Contest) -> bool:
    if c.course_id is None:
        return True
    if user is None or user.id is None:
        return False
    if user.is_admin or user.id == c.created_by:
        return True
    course = session.get(Course, c.course_id)
    return course is not None and classes.can_view(session, user, course)


def can_manage(user: User | None, c: Contest) -> bool:
    return bool(user and (user.is_admin or user.id == c.created_by))


def get(session: Session, contest_id: int, user: User | None) -> Contest:
    c = session.get(Contest, contest_id)
    if c is None or not can_view(session, user, c):
        raise ContestError("there is no such contest, or it is for a class you are not in", 404)
    return c


def visible(session: Session, user: User | None) -> list[Contest]:
    """The contests ``user`` may see, the latest start first."""
    q = select(Contest)
    if user is None or user.id is None:
        q = q.where(col(Contest.course_id).is_(None))
    elif not user.is_admin:
        mine = select(CourseMember.course_id).where(
            CourseMember.user_id == user.id,
            col(CourseMember.role).in_([Role.STUDENT, Role.INSTRUCTOR]),
        )
        q = q.where(
            or_(
                col(Contest.course_id).is_(None),
                col(Contest.course_id).in_(mine),
                col(Contest.created_by) == user.id,
            )
        )
    return list(session.exec(q.order_by(col(Contest.start_at).desc())).all())


def problems(session: Session, contest_id: int) -> list[str]:
    rows = session.exec(
        select(ContestProblem)
        .where(ContestProblem.contest_id == contest_id)
        .order_by(col(ContestProblem.position))
    ).all()
    return [r.problem for r in rows]


def phase(c: Contest, now: datetime | None = None) -> str:
    now = now or utcnow()
    start, end = aware(c.start_at), aware(c.end_at)
    if now < start:
        return UPCOMING
    if now < end:
        return FROZEN if c.freeze_minutes and now >= freeze_at(c) else RUNNING
    return FINAL if c.revealed_at is not None else JUDGING


def freeze_at(c: Contest) -> datetime:
    return aware(c.end_at) - timedelta(minutes=c.freeze_minutes)


def length(c: Contest) -> timedelta:
    return aware(c.end_at) - aware(c.start_at)


def entry(session: Session, contest_id: int, user_id: int) -> ContestEntry | None:
    return session.get(ContestEntry, (contest_id, user_id))


@dataclass
class Joined:
    entry: ContestEntry
    created: bool


def join(session: Session, user: User, c: Contest, now: datetime | None = None) -> Joined:
    """Joins ``user``: live up to the end (late joiners welcome), virtual after it."""
    assert user.id is not None and c.id is not None
    now = now or utcnow()
    had = entry(session, c.id, user.id)
    if had is not None:
        return Joined(had, False)
    ended = now >= aware(c.end_at)
    if ended and c.revealed_at is None:
        raise ContestError("the contest is being judged; join virtually once its results are out")
    e = ContestEntry(
        contest_id=c.id,
        user_id=user.id,
        virtual=ended,
        joined_at=now,
        started_at=now if ended else c.start_at,
    )
    session.add(e)
    if c.reminded_at is not None and now < aware(c.start_at):
        remind(session, c, user.id, now)  # joined after the reminder went out: theirs now
    session.commit()
    session.refresh(e)
    return Joined(e, True)


def remind(session: Session, c: Contest, user_id: int, now: datetime) -> None:
    """Notifies "starts in N minutes" (committed by the caller)."""
    minutes = max(1, math.ceil((aware(c.start_at) - now).total_seconds() / 60))
    notifications.notify(
        session,
        user_id,
        CONTEST_STARTS,
        f"The contest “{c.title}” starts in {minutes} minute{'s' if minutes > 1 else ''}.",
        f"/contests/{c.id}",
    )


def window(c: Contest, e: ContestEntry) -> tuple[datetime, datetime]:
    """The span in which ``e``'s submissions count."""
    start = aware(e.started_at)
    return (start, start + length(c)) if e.virtual else (aware(c.start_at), aware(c.end_at))
