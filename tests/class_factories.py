"""Rows the class-mode tests start from: users with roles, judged submissions at given times."""

from __future__ import annotations

from datetime import datetime

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.classes import service
from app.models import Mode, Status, Submission, User
from tests.app.conftest import signup


def user_client(client: TestClient, name: str, instructor: bool = False) -> tuple[TestClient, str]:
    """A separate browser (its own cookies) on the same app, signed up as ``name``."""
    c = TestClient(client.app)
    csrf = signup(c, name)
    if instructor:
        with Session(client.app.state.engine) as s:
            service.set_instructor(s, name)
    return c, csrf


def judged(
    engine: Engine,
    username: str,
    at: datetime,
    verdict: str = "accepted",
    score_ms: float | None = None,
    problem: str = "toy-add",
    gpu_kind: str = "cpu",
    language: str = "triton",
    source: str = "def solve(a, b, c, n):\n    pass\n",
    hidden: bool = False,
) -> int:
    """A finished ranked submission of ``username`` made at ``at``; its id."""
    with Session(engine) as s:
        u = s.exec(select(User).where(User.username == username)).one()
        sub = Submission(
            user_id=u.id or 0,
            problem=problem,
            language=language,
            gpu_kind=gpu_kind,
            source=source,
            mode=Mode.SUBMIT,
            status=Status.DONE,
            verdict=verdict,
            score_ms=score_ms,
            hidden=hidden,
            created_at=at,
            finished_at=at,
        )
        s.add(sub)
        s.commit()
        s.refresh(sub)
        assert sub.id is not None
        return sub.id
