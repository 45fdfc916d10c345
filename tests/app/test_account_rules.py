"""Issue 18.14: password rules, normalised usernames, security headers, password change/reset."""

from __future__ import annotations

import re

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.accounts import create_admin
from app.models import User
from tests.app.conftest import csrf_of, signup

GOOD = "kernel-dojo-pass"


def _signup(c: TestClient, name: str, password: str = GOOD) -> httpx.Response:
    return c.post("/api/v1/auth/signup", json={"username": name, "password": password})


def _login(c: TestClient, name: str, password: str) -> int:
    r = c.post("/api/v1/auth/login", json={"username": name, "password": password})
    return r.status_code


@pytest.mark.parametrize("password", ["password123", "qwertyuiop", "alicealice", "          "])
def test_common_and_blank_passwords_are_refused(client: TestClient, password: str) -> None:
    r = _signup(client, "alice", password)
    assert r.status_code == 422
    assert "choose a longer one" in r.text or "only spaces" in r.text


def test_usernames_are_normalised_so_look_alikes_cannot_coexist(
    client: TestClient, engine: Engine
) -> None:
    assert _signup(client, "Alice").status_code == 201
    with Session(engine) as s:
        assert [u.username for u in s.exec(select(User)).all()] == ["alice"]
    other = TestClient(client.app)
    assert _signup(other, "ａｌｉｃｅ").status_code == 409  # full width: the same name
    assert _signup(other, "ALICE").status_code == 409
    r = _signup(other, "аlice")  # a Cyrillic а
    assert r.status_code == 422 and "letters a-z" in r.text
    assert _login(other, "ALICE", GOOD) == 200  # any case logs in


def test_pages_carry_security_headers_and_no_inline_script(client: TestClient) -> None:
    for path in ("/problems", "/problems/toy-add", "/leaderboard", "/login", "/nope"):
        r = client.get(path)
        csp = r.headers["content-security-policy"]
        script_src = re.search(r"script-src ([^;]*)", csp)
        assert script_src and script_src.group(1).strip() == "'self'"
        assert "frame-ancestors 'none'" in csp
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["referrer-policy"] == "same-origin"
        assert not re.search(r"\son[a-z]+=", r.text), path  # no inline handlers
        for tag in re.findall(r"<script[^>]*>", r.text):
            assert "src=" in tag or 'type="application/json"' in tag, (path, tag)
    assert client.get("/api/v1/problems").headers["x-frame-options"] == "DENY"


def _change(c: TestClient, current: str, new: str, confirm: str | None = None) -> httpx.Response:
    return c.post(
        "/settings/password",
        data={
            "csrf_token": csrf_of(c),
            "current_password": current,
            "new_password": new,
            "confirm_password": new if confirm is None else confirm,
        },
        follow_redirects=False,
    )


def test_password_change_checks_rules_and_ends_other_sessions(client: TestClient) -> None:
    signup(client, password=GOOD)
    other = TestClient(client.app)
    assert _login(other, "alice", GOOD) == 200
    r = _change(client, "wrong-current-pass", "tall-violet-anchor-93")
    assert r.status_code == 400 and "current password is not right" in r.text
    r = _change(client, GOOD, "password1")
    assert r.status_code == 422 and "choose a longer one" in r.text
    r = _change(client, GOOD, "tall-violet-anchor-93", "tall-violet-anchor-94")
    assert r.status_code == 422 and "differ" in r.text
    r = _change(client, GOOD, "tall-violet-anchor-93")
    assert r.status_code == 303
    assert client.get("/api/v1/auth/me").status_code == 200  # this browser stays in
    assert other.get("/api/v1/auth/me").status_code == 401  # the others are out
    fresh = TestClient(client.app)
    assert _login(fresh, "alice", GOOD) == 401
    assert _login(fresh, "alice", "tall-violet-anchor-93") == 200


def test_admin_resets_a_learners_password(client: TestClient, engine: Engine) -> None:
    bob = TestClient(client.app)
    signup(bob, "bob", GOOD)
    with Session(engine) as s:
        create_admin(s, "teacher", "teacher-long-pass")
    assert _login(client, "teacher", "teacher-long-pass") == 200
    form = {"csrf_token": csrf_of(client), "username": "BOB", "new_password": "12345678"}
    r = client.post("/admin/users/password", data=form)  # the notice: through the session
    assert "Password not changed" in r.text and r.url.path == "/admin" and not r.url.query
    form["new_password"] = "harbor-quilt-silver-7"
    r = client.post("/admin/users/password", data=form)
    assert r.status_code == 200 and "sessions have ended" in r.text
    assert bob.get("/api/v1/auth/me").status_code == 401
    assert _login(TestClient(client.app), "bob", "harbor-quilt-silver-7") == 200
    learner = TestClient(client.app)
    assert _login(learner, "bob", "harbor-quilt-silver-7") == 200
    form["csrf_token"] = csrf_of(learner)
    assert learner.post("/admin/users/password", data=form).status_code == 403
