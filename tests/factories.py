"""Rows the database tests start from."""

from __future__ import annotations

from sqlalchemy.engine import Engine
from sqlmodel import Session

from app import submissions
from app.models import SubmissionCreate, User


def submission(engine: Engine, username: str = "u1") -> int:
    """A new user's queued toy-add submission; its id."""
    with Session(engine) as s:
        u = User(username=username, password_hash="x")
        s.add(u)
        s.commit()
        s.refresh(u)
        sub = submissions.create(
            s, u, SubmissionCreate(problem="toy-add", language="triton", source="x"), "cpu"
        )
        assert sub.id is not None
        return sub.id
