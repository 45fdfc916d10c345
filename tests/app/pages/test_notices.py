"""Notices travel in the signed session cookie, not the URL (issue 36): ``?message=`` and
``?error=`` render nothing, so a link cannot put an attacker's text on the site as a notice;
a real notice shows once, after the redirect that carries it."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.accounts import create_admin
from app.classes.models import Course
from tests.app.conftest import csrf_of
from tests.class_factories import user_client

FAKE = "Your account is suspended: call 555-0100"


def test_query_notices_are_not_rendered(client: TestClient, engine: Engine) -> None:
    teacher, csrf = user_client(client, "teacher", instructor=True)
    r = teacher.post("/classes", data={"csrf_token": csrf, "name": "Kernels", "gpu_kind": "cpu"})
    assert "Class created" in r.text  # the real notice, after the redirect
    assert "Class created" not in teacher.get(r.url.path).text  # once
    with Session(engine) as s:
        cid = s.exec(select(Course)).one().id
    with Session(engine) as s:
        create_admin(s, "boss", "boss-password-1")
    boss = TestClient(client.app)
    boss.post("/api/v1/auth/login", json={"username": "boss", "password": "boss-password-1"})
    for who, path in (
        (teacher, "/classes"),
        (teacher, f"/classes/{cid}"),
        (teacher, "/settings/account"),
        (boss, "/admin"),
    ):
        for key in ("message", "error"):
            page = who.get(path, params={key: FAKE})
            assert page.status_code == 200 and "555-0100" not in page.text, (path, key)
    r = boss.post("/admin/signups", data={"csrf_token": csrf_of(boss), "signups_open": "1"})
    assert "Sign-up settings saved" in r.text and "?message" not in str(r.url)
