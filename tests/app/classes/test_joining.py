"""Joining a class as learners do it (#37, item 11): a code typed with spaces or without its
dashes works; a learner who signed up through the invite link lands in the class, not on a page
saying they are already in it."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.classes import service
from app.classes.models import Course, CourseMember, Role
from tests.app.conftest import csrf_of
from tests.class_factories import user_client


def _course(client: TestClient, engine: Engine) -> Course:
    teacher, csrf = user_client(client, "teacher", instructor=True)
    r = teacher.post("/classes", data={"csrf_token": csrf, "name": "Kernels", "gpu_kind": "cpu"})
    assert r.status_code == 200, r.text
    with Session(engine) as s:
        return s.exec(select(Course)).one()


def test_a_code_typed_in_groups_with_spaces_finds_the_class(
    client: TestClient, engine: Engine
) -> None:
    course = _course(client, engine)
    code = course.invite_code
    with Session(engine) as s:
        for typed in (code.replace("-", " "), code.replace("-", "").upper(), f"  {code} "):
            found = service.by_code(s, typed)
            assert found is not None and found.id == course.id, typed
        assert service.by_code(s, code.replace("-", " ")[:-1]) is None  # one character short
    learner, csrf = user_client(client, "carol")
    r = learner.post("/classes/join", data={"csrf_token": csrf, "code": code.replace("-", " ")})
    assert r.status_code == 200 and "You joined Kernels" in r.text


def test_signing_up_through_the_link_lands_in_the_class(client: TestClient, engine: Engine) -> None:
    course = _course(client, engine)
    browser = TestClient(client.app)
    r = browser.get(f"/join/{course.invite_code}")  # no account: sign up, the code filled in
    assert "/signup" in str(r.url)
    r = browser.post(
        "/signup",
        data={
            "csrf_token": csrf_of(browser),
            "username": "dave",
            "password": "kernel-dojo-pass",
            "invite_code": course.invite_code,
            "next": f"/join/{course.invite_code}",
        },
    )
    assert r.status_code == 200
    assert "already in this class" not in r.text
    assert str(r.url).endswith(f"/classes/{course.id}"), r.url
    assert re.search(r"You are in Kernels", r.text)
    with Session(engine) as s:
        roles = s.exec(select(CourseMember.role).where(CourseMember.course_id == course.id)).all()
        assert Role.STUDENT in roles
