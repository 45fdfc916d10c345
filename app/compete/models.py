"""Tables of the rating's history and of contests (migration ``web_contests``).

A contest's submissions are ordinary ranked submissions (mode ``submit``) made on its problems,
on its GPU kind, inside a contestant's window: no contest column on ``submission``. The final
re-run's gradings are submissions too, hidden from every board and statistic
(``ContestRerun`` links them to the submission they re-run).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, Text
from sqlmodel import Field, SQLModel

from app.models import utcnow


class RatingPoint(SQLModel, table=True):
    """A learner's overall rating from ``at`` on (stored when it moved: app/compete/rating.py)."""

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    at: datetime = Field(default_factory=utcnow, index=True)
    rating: float


class Contest(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    title: str = Field(max_length=100)
    description: str = Field(default="", sa_column=Column(Text, nullable=False))
    start_at: datetime
    end_at: datetime
    # The public board stops moving this many minutes before the end, until the reveal.
    freeze_minutes: int = 0
    # At the end every contestant's best submission per problem is graded again on fresh
    # inputs; only what passes that ranked run counts on the final board.
    rerun: bool = False
    # Limited to one class's members (and its instructors); None: open to every learner.
    course_id: int | None = Field(default=None, foreign_key="course.id", index=True)
    gpu_kind: str = Field(max_length=32)  # submissions count on this GPU kind only
    created_by: int = Field(foreign_key="user.id", index=True)
    created_at: datetime = Field(default_factory=utcnow)
    # Each step done once, claimed by a conditional UPDATE (app/compete/ticks.py).
    reminded_at: datetime | None = None  # "starts in 10 minutes" sent
    rerun_at: datetime | None = None  # the final re-run queued
    revealed_at: datetime | None = None  # the final board shown, "results are out" sent


class ContestProblem(SQLModel, table=True):
    contest_id: int = Field(foreign_key="contest.id", primary_key=True)
    problem: str = Field(primary_key=True, max_length=64)
    position: int = 0


class ContestEntry(SQLModel, table=True):
    """A learner in a contest: live (joined before the end, however late) or virtual (started
    after the end, for the contest's length from ``started_at``, ranked apart)."""

    contest_id: int = Field(foreign_key="contest.id", primary_key=True)
    user_id: int = Field(foreign_key="user.id", primary_key=True)
    virtual: bool = False
    joined_at: datetime = Field(default_factory=utcnow)
    started_at: datetime  # the window's start: the contest's for a live entry


class ContestRerun(SQLModel, table=True):
    """One grading of the final re-run: ``original_id`` graded again as ``rerun_id``."""

    id: int | None = Field(default=None, primary_key=True)
    contest_id: int = Field(foreign_key="contest.id", index=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    problem: str = Field(max_length=64)
    original_id: int = Field(foreign_key="submission.id")
    rerun_id: int = Field(foreign_key="submission.id")
