"""Issue 18.7: invite codes are strong by default, compared in constant time, throttled."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.accounts import create_admin, new_invite_code
from app.core import throttle
from tests.app.conftest import csrf_of

PASSWORD = "kernel-dojo-pass"


def _admin(c: TestClient, engine: Engine) -> dict[str, str]:
    with Session(engine) as s:
        create_admin(s, "teacher", "teacher-long-pass")
    r = c.post("/api/v1/auth/login", json={"username": "teacher", "password": "teacher-long-pass"})
    assert r.status_code == 200
    return {"X-CSRF-Token": csrf_of(c)}


def _join(c: TestClient, code: str, name: str = "late") -> int:
    r = c.post(
        "/api/v1/auth/signup",
        json={"username": name, "password": PASSWORD, "invite_code": code},
    )
    return r.status_code


def test_generated_codes_are_long_and_random() -> None:
    codes = {new_invite_code() for _ in range(50)}
    assert len(codes) == 50
    assert all(re.fullmatch(r"[a-z2-9]{4}(-[a-z2-9]{4}){3}", c) for c in codes)


def test_admin_gets_a_strong_code_and_short_ones_are_refused(
    client: TestClient, engine: Engine
) -> None:
    h = _admin(client, engine)
    r = client.put(
        "/api/v1/admin/signups", json={"signups_open": False, "invite_code": "gpu-101"}, headers=h
    )
    assert r.status_code == 422 and "at least 12 characters" in r.text
    r = client.put(
        "/api/v1/admin/signups",
        json={"signups_open": False, "generate_invite_code": True},
        headers=h,
    )
    assert r.status_code == 200
    code = r.json()["invite_code"]
    assert len(code) == 19 and r.json() == {"signups_open": False, "invite_code": code}
    # The form's "new random code" button does the same.
    r = client.post(
        "/admin/signups",
        data={"csrf_token": h["X-CSRF-Token"], "generate": "1", "invite_code": "x"},
        follow_redirects=False,
    )
    assert r.status_code == 303
    assert client.get("/api/v1/admin/signups").json()["invite_code"] not in ("", "x", code)
    r = client.post(
        "/admin/signups", data={"csrf_token": h["X-CSRF-Token"], "invite_code": "short"}
    )
    assert "at least 12 characters" in r.text  # a notice through the session, not the URL


def test_invite_code_guesses_are_throttled(client: TestClient, engine: Engine) -> None:
    h = _admin(client, engine)
    code = client.put(
        "/api/v1/admin/signups",
        json={"signups_open": False, "generate_invite_code": True},
        headers=h,
    ).json()["invite_code"]
    guesser = TestClient(client.app)
    for i in range(throttle.POLICIES["invite-ip"].free + 1):
        assert _join(guesser, f"guess-{i:04d}-abcd", name=f"g{i:03d}") == 403
    r = guesser.post(
        "/api/v1/auth/signup",
        json={"username": "late", "password": PASSWORD, "invite_code": code},
    )
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    with Session(engine) as s:  # the lock holds; past it, the right code works
        from tests.app.core.test_login_throttle import _unlock

        _unlock(engine, client.app)
        s.commit()
    assert _join(guesser, code) == 201
