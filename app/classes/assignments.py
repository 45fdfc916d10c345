"""Assignments: a list of problems with grading rules, an opening time, a due time and an
optional late policy; created, re-timed and deleted by the class's instructors."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlmodel import Session, col, select

from app.classes import editorial
from app.classes.models import Assignment, AssignmentProblem, Course, Rule
from app.classes.schemas import AssignmentCreate, Deadlines, zone
from app.classes.service import ClassError
from app.models import utcnow
from app.problems import ProblemRegistry
from judge import languages


@dataclass
class Window:
    """Where a submission made at some moment falls for an assignment."""

    counts: bool  # inside [opens_at, due_at] or, with a late policy, up to late_until
    late: bool  # after due_at
    factor: float  # what its score is multiplied by (0 when it does not count)


def window(a: Assignment, at: datetime) -> Window:
    if at < a.opens_at:
        return Window(False, False, 0.0)
    if at <= a.due_at:
        return Window(True, False, 1.0)
    if a.late_until is not None and at <= a.late_until:
        return Window(True, True, a.late_factor)
    return Window(False, True, 0.0)


def state(a: Assignment, now: datetime | None = None) -> str:
    """'upcoming', 'open', 'late' (past due, late work accepted) or 'closed'."""
    now = now or utcnow()
    if now < a.opens_at:
        return "upcoming"
    if now <= a.due_at:
        return "open"
    if a.late_until is not None and now <= a.late_until:
        return "late"
    return "closed"


def local(a: Assignment, at: datetime | None) -> str:
    """A stored time as the assignment's time zone shows it: ``2026-12-01 23:59 CET``."""
    if at is None:
        return ""
    return at.astimezone(zone(a.timezone)).strftime("%Y-%m-%d %H:%M %Z")


def local_input(a: Assignment, at: datetime | None) -> str:
    """The same, as an ``<input type=datetime-local>`` value (seconds kept)."""
    if at is None:
        return ""
    return at.astimezone(zone(a.timezone)).strftime("%Y-%m-%dT%H:%M:%S")


def new_window(now: datetime | None = None) -> tuple[str, str]:
    """The new-assignment form's Opens and Due (UTC, as ``datetime-local`` values): now, to the
    minute, and a week later at 23:59."""
    now = (now or utcnow()).astimezone(UTC).replace(second=0, microsecond=0)
    due = (now + timedelta(days=7)).replace(hour=23, minute=59)
    return now.strftime("%Y-%m-%dT%H:%M:%S"), due.strftime("%Y-%m-%dT%H:%M:%S")


def untimed_speed(course: Course, data: AssignmentCreate) -> str | None:
    """Why the class page's form refuses speed rules for this class, or None. A class on an
    untimed kind (the CPU interpreter) grades a speed rule on correctness only; the API and
    scripts may still name one (``gpu_check.py --phase class`` runs its flow on the CPU)."""
    timed = [p.problem for p in data.problems if p.rule == Rule.SPEED]
    if not timed or course.gpu_kind not in editorial.UNTIMED_KINDS:
        return None
    return (
        "speed grading needs a GPU class: this class grades on the CPU, which times nothing "
        f"(choose 'Correctness only' for {', '.join(timed)})"
    )


def create(
    session: Session, course: Course, data: AssignmentCreate, registry: ProblemRegistry
) -> Assignment:
    unknown = [p.problem for p in data.problems if registry.get(p.problem) is None]
    if unknown:
        raise ClassError(f"unknown problem {', '.join(unknown)}", 404)
    assert course.id is not None
    a = Assignment(
        course_id=course.id,
        title=data.title,
        opens_at=data.opens_at,
        due_at=data.due_at,
        late_until=data.late_until,
        late_factor=data.late_factor if data.late_until is not None else 1.0,
        timezone=data.timezone,
    )
    session.add(a)
    session.flush()
    assert a.id is not None
    for i, p in enumerate(data.problems):
        session.add(
            AssignmentProblem(
                assignment_id=a.id,
                problem=p.problem,
                rule=p.rule,
                points=p.points,
                position=i,
                languages=",".join(p.languages),
            )
        )
    session.commit()
    session.refresh(a)
    return a


def retime(session: Session, a: Assignment, data: Deadlines) -> Assignment:
    """New times or late policy (an extension, or closing it early); grades follow at once."""
    a.opens_at, a.due_at, a.late_until = data.opens_at, data.due_at, data.late_until
    a.late_factor = data.late_factor if data.late_until is not None else 1.0
    a.timezone = data.timezone
    session.add(a)
    session.commit()
    session.refresh(a)
    return a


def delete(session: Session, a: Assignment) -> None:
    for p in problems(session, a.id or 0):
        session.delete(p)
    session.delete(a)
    session.commit()


def get(session: Session, course: Course, assignment_id: int) -> Assignment:
    a = session.get(Assignment, assignment_id)
    if a is None or a.course_id != course.id:
        raise ClassError("there is no such assignment in this class", 404)
    return a


def problems(session: Session, assignment_id: int) -> list[AssignmentProblem]:
    return list(
        session.exec(
            select(AssignmentProblem)
            .where(AssignmentProblem.assignment_id == assignment_id)
            .order_by(col(AssignmentProblem.position), col(AssignmentProblem.id))
        ).all()
    )


def counted_languages(p: AssignmentProblem) -> list[str]:
    """The languages whose submissions count for this problem: those the instructor named,
    else every kernel-track language (PyTorch, the framework track, only where named)."""
    named = [x for x in p.languages.split(",") if x]
    return named or [lang.name for lang in languages.all() if lang.track == "kernel"]


def speed_languages(session: Session, assignment_id: int) -> dict[str, list[str]]:
    """Problem -> the languages to time editorials in, for the speed rules of an assignment."""
    return {
        p.problem: counted_languages(p)
        for p in problems(session, assignment_id)
        if p.rule == Rule.SPEED
    }


def speed_problems(session: Session, course_id: int) -> list[str]:
    """The problems graded by speed in any assignment of the class."""
    rows = session.exec(
        select(AssignmentProblem.problem)
        .join(Assignment, col(Assignment.id) == AssignmentProblem.assignment_id)
        .where(Assignment.course_id == course_id, AssignmentProblem.rule == Rule.SPEED)
        .distinct()
    ).all()
    return sorted(rows)
