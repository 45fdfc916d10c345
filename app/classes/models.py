"""Class-mode tables: a course, its members, its assignments and their problems, and the
editorial runs that give the speed score its reference time.

Times are stored as aware UTC; an assignment keeps the IANA time zone its instructor chose,
in which its times are entered and shown.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from app.models import utcnow


class Role(StrEnum):
    STUDENT = "student"
    INSTRUCTOR = "instructor"
    # Asked to co-teach, not yet accepted: no rights in the class (``service.answer``).
    INVITED = "invited"


class Rule(StrEnum):
    """How a problem of an assignment is graded (``grades.cell_score``)."""

    CORRECTNESS = "correctness"  # full points for an accepted submission
    SPEED = "speed"  # accepted: half to full points by time against the editorial's


class Course(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=100)
    term: str = Field(default="", max_length=60)
    # Learners enrol with it (typed, or through the /join/<code> link); never a site secret.
    invite_code: str = Field(max_length=64, index=True, unique=True)
    # Submissions count for the class only when graded on this GPU kind (its queue).
    gpu_kind: str = Field(max_length=32)
    created_by: int = Field(foreign_key="user.id", index=True)
    created_at: datetime = Field(default_factory=utcnow)


class CourseMember(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("course_id", "user_id"),)

    id: int | None = Field(default=None, primary_key=True)
    course_id: int = Field(foreign_key="course.id", index=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    role: str = Field(default=Role.STUDENT, max_length=16)
    joined_at: datetime = Field(default_factory=utcnow)


class Assignment(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    course_id: int = Field(foreign_key="course.id", index=True)
    title: str = Field(max_length=100)
    opens_at: datetime
    due_at: datetime
    # Late policy: submissions until ``late_until`` count, multiplied by ``late_factor``.
    # None: nothing after ``due_at`` counts (late ones are still graded, and marked late).
    late_until: datetime | None = None
    late_factor: float = 1.0
    timezone: str = Field(default="UTC", max_length=64)
    created_at: datetime = Field(default_factory=utcnow)


class AssignmentProblem(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("assignment_id", "problem"),)

    id: int | None = Field(default=None, primary_key=True)
    assignment_id: int = Field(foreign_key="assignment.id", index=True)
    problem: str = Field(max_length=64)
    rule: str = Field(default=Rule.CORRECTNESS, max_length=16)
    points: float = 10.0
    position: int = 0
    # The languages whose submissions count, comma-separated; empty: every kernel-track
    # language (``assignments.counted_languages``), so PyTorch counts only where named.
    languages: str = Field(default="", max_length=200)


class EditorialRun(SQLModel, table=True):
    """A problem's editorial solution submitted (hidden) to measure it on one GPU kind."""

    id: int | None = Field(default=None, primary_key=True)
    problem: str = Field(max_length=64, index=True)
    gpu_kind: str = Field(max_length=32)
    language: str = Field(max_length=16)
    submission_id: int = Field(foreign_key="submission.id", index=True)
    created_at: datetime = Field(default_factory=utcnow)
