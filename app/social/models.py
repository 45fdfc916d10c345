"""Tables of published solutions, discussions and notifications.

References to another learner's row (a vote on someone's solution, a reply to someone's
comment) are plain integers, not foreign keys: deleting an account (app/erase.py) follows the
foreign keys to ``user`` and refuses while a row it would delete names another user, and a vote
or a reply must not keep its author's account from being deleted. A dangling reference is read
as "gone" (a reply to a deleted comment shows at the top level).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, Text
from sqlmodel import Field, SQLModel

from app.models import utcnow


class PublishedSolution(SQLModel, table=True):
    """An accepted submission its author made public, with a write-up. Verdict, time and speed
    of light are read from the submission's stored result, never from this row."""

    id: int | None = Field(default=None, primary_key=True)
    submission_id: int = Field(foreign_key="submission.id", unique=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    problem: str = Field(index=True, max_length=64)
    title: str = Field(max_length=120)
    writeup: str = Field(sa_column=Column(Text, nullable=False))
    published: bool = True  # False: the author unpublished it (kept for its thread and votes)
    hidden: bool = False  # an admin hid it
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class SolutionVote(SQLModel, table=True):
    solution_id: int = Field(primary_key=True)
    user_id: int = Field(foreign_key="user.id", primary_key=True)
    created_at: datetime = Field(default_factory=utcnow)


class EditorialOpened(SQLModel, table=True):
    """A learner gave up on a problem and opened its editorial: from then on they may read its
    published solutions, as one who solved it does."""

    user_id: int = Field(foreign_key="user.id", primary_key=True)
    problem: str = Field(primary_key=True, max_length=64)
    opened_at: datetime = Field(default_factory=utcnow)


class Comment(SQLModel, table=True):
    """One comment of a thread: ``problem:<slug>`` or ``solution:<id>``."""

    id: int | None = Field(default=None, primary_key=True)
    thread: str = Field(index=True, max_length=80)
    user_id: int = Field(foreign_key="user.id", index=True)
    parent_id: int | None = Field(default=None, index=True)  # the comment this replies to
    body: str = Field(sa_column=Column(Text, nullable=False))
    hidden: bool = False  # a moderator hid it
    deleted: bool = False  # its author deleted it: the body is gone, its replies stay
    created_at: datetime = Field(default_factory=utcnow, index=True)
    edited_at: datetime | None = None


class CommentVote(SQLModel, table=True):
    comment_id: int = Field(primary_key=True)
    user_id: int = Field(foreign_key="user.id", primary_key=True)
    created_at: datetime = Field(default_factory=utcnow)


class ThreadLock(SQLModel, table=True):
    """A thread a moderator locked: read-only until unlocked (the row deleted)."""

    thread: str = Field(primary_key=True, max_length=80)
    locked_by: int  # an admin's id (no foreign key: see the module's docstring)
    locked_at: datetime = Field(default_factory=utcnow)


class Notification(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    kind: str = Field(max_length=16)  # notifications.REPLY, notifications.RECORD_BEATEN
    text: str = Field(max_length=300)
    link: str = Field(max_length=200)  # a path on this site
    created_at: datetime = Field(default_factory=utcnow, index=True)
    read_at: datetime | None = None
