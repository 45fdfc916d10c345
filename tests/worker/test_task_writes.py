"""The task's database writes (issue 18, point 5): progress is best effort, the result is
retried, and a judge failure's internal message reaches admins only. Database failures are
injected at the driver boundary (every statement that matches fails), on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError
from sqlmodel import Session, SQLModel

from app import visibility
from app.core.db import make_engine
from app.models import Status, Submission
from tests import factories
from worker import tasks

ACCEPTED = {"verdict": "accepted", "cases": [{"name": "n = 3", "passed": True}], "score_ms": 1.0}


@pytest.fixture
def eng(db_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Engine]:
    e = make_engine(db_url)
    monkeypatch.setattr(tasks, "engine", lambda: e)
    monkeypatch.setattr(tasks, "RECORD_RETRY_S", (0.01, 0.01, 0.01))
    yield e
    with e.begin() as c:
        for t in reversed(SQLModel.metadata.sorted_tables):
            c.execute(t.delete())
    e.dispose()


def _submission(eng: Engine) -> int:
    return factories.submission(eng, "learner")


def _fail(eng: Engine, needle: str, times: int) -> list[int]:
    """Make the next ``times`` UPDATEs whose SET list starts with ``needle`` fail as a dropped
    connection (report_progress: ``progress_json``; record: ``status`` ... ``finished_at``)."""
    left = [times]

    def before(conn: Any, cursor: Any, statement: str, *_: Any) -> None:
        sets = statement.partition(" SET ")[2].partition(" WHERE ")[0]
        result_write = needle != "status" or "finished_at" in sets
        if statement.startswith("UPDATE") and sets.startswith(needle) and result_write and left[0]:
            left[0] -= 1
            raise OperationalError(statement, {}, Exception("server closed the connection"))

    event.listen(eng, "before_cursor_execute", before)
    return left


def test_progress_writes_that_fail_are_skipped_and_the_result_retried(
    eng: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = _submission(eng)

    def grade(*args: Any) -> dict[str, Any]:
        on_progress = args[-1]
        for i in range(3):
            on_progress({"stage": "testing", "index": i + 1, "total": 3})
        return dict(ACCEPTED)

    monkeypatch.setattr(tasks, "_grade", grade)
    _fail(eng, "progress_json", 10**6)  # every progress write fails, for good
    record_failures = _fail(eng, "status", 2)  # the result write fails twice
    assert tasks.run(sid, "w@host/1")
    with Session(eng) as s:
        sub = s.get(Submission, sid)
        assert sub is not None
        assert (sub.status, sub.verdict) == (Status.DONE, "accepted")
    assert record_failures == [0]


def test_a_judge_failure_keeps_its_internal_message_from_learners(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import judge.grader as grader

    def broken(*_: Any, **__: Any) -> None:
        raise RuntimeError("psycopg.OperationalError: connection to 10.0.0.5 lost /srv/secret")

    monkeypatch.setattr(grader, "grade", broken)
    res = tasks._grade("vector-add", "x", "triton", "submit", "cpu", lambda ev: None)
    assert res["verdict"] == "internal_error" and "10.0.0.5" in res["internal"]
    assert "10.0.0.5" not in res["message"]
    sub = Submission(
        user_id=1,
        problem="toy-add",
        language="triton",
        gpu_kind="cpu",
        source="x",
        verdict="internal_error",
        message=res["message"],
        result_json=__import__("json").dumps(res),
    )
    for code in (True, False):
        seen = visibility.result_for(res, code=code, admin=False)
        assert seen is not None and "10.0.0.5" not in str(seen)
        assert "10.0.0.5" not in visibility.message_for(sub, code=code, admin=False)
    assert "10.0.0.5" in str(visibility.result_for(res, code=True, admin=True))
