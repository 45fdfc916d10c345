"""The new-assignment form (#37, item 10): Opens and Due start filled in; a CPU class cannot
choose speed grading, and says why before anything is created."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.classes import assignments
from app.classes.models import Assignment, Course
from tests.class_factories import user_client


def _course(teacher: TestClient, csrf: str, engine: Engine, gpu_kind: str) -> Course:
    r = teacher.post("/classes", data={"csrf_token": csrf, "name": "Kernels", "gpu_kind": gpu_kind})
    assert r.status_code == 200, r.text
    with Session(engine) as s:
        return s.exec(select(Course)).one()


def test_opens_and_due_start_filled_in_a_week_apart(client: TestClient, engine: Engine) -> None:
    teacher, csrf = user_client(client, "teacher", instructor=True)
    course = _course(teacher, csrf, engine, "cpu")
    html = teacher.get(f"/classes/{course.id}").text
    opens = re.search(r'name="opens_at" value="([^"]+)"', html)
    due = re.search(r'name="due_at" value="([^"]+)"', html)
    assert opens and due, "the form's times are empty"
    start = datetime.fromisoformat(opens.group(1)).replace(tzinfo=UTC)
    end = datetime.fromisoformat(due.group(1)).replace(tzinfo=UTC)
    assert abs((start - datetime.now(UTC)).total_seconds()) < 120
    assert (end - start).days in (7, 8) and end.strftime("%H:%M") == "23:59"
    assert assignments.new_window(datetime(2026, 1, 1, 10, 30, 15, tzinfo=UTC)) == (
        "2026-01-01T10:30:00",
        "2026-01-08T23:59:00",
    )


def test_a_cpu_class_explains_and_refuses_speed_grading(client: TestClient, engine: Engine) -> None:
    teacher, csrf = user_client(client, "teacher", instructor=True)
    course = _course(teacher, csrf, engine, "cpu")
    html = teacher.get(f"/classes/{course.id}").text
    assert "speed grading needs a GPU class" in html
    assert 'value="speed" disabled' in html
    opens, due = assignments.new_window()
    r = teacher.post(
        f"/classes/{course.id}/assignments",
        data={
            "csrf_token": csrf,
            "title": "Week 1",
            "opens_at": opens,
            "due_at": due,
            "timezone": "UTC",
            "late_factor": "0.5",
            "slug": "vector-add",
            "include": "vector-add",
            "rule": "speed",
            "languages": "kernel",
            "points": "10",
        },
    )
    assert "speed grading needs a GPU class" in r.text
    with Session(engine) as s:
        assert s.exec(select(Assignment)).first() is None
