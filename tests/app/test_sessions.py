"""Issue 18.8: sessions live on the server, so log-out and "everywhere" revoke copied cookies."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.models import UserSession
from tests.app.conftest import csrf_of, signup

GOOD = "kernel-dojo-pass"


def _copy(c: TestClient) -> TestClient:
    """Another client holding a copy of ``c``'s session cookie (a stolen cookie)."""
    thief = TestClient(c.app)
    thief.cookies.set("kd_session", c.cookies["kd_session"])
    return thief


def test_a_copied_cookie_dies_at_log_out(client: TestClient, engine: Engine) -> None:
    csrf = signup(client, password=GOOD)
    thief = _copy(client)
    assert thief.get("/api/v1/auth/me").status_code == 200
    assert client.post("/api/v1/auth/logout", headers={"X-CSRF-Token": csrf}).status_code == 204
    assert thief.get("/api/v1/auth/me").status_code == 401
    assert "Log in" in thief.get("/problems").text  # pages too
    with Session(engine) as s:
        assert s.exec(select(UserSession)).all() == []


def test_log_out_from_the_form_revokes_too(client: TestClient) -> None:
    signup(client, password=GOOD)
    thief = _copy(client)
    r = client.post("/logout", data={"csrf_token": csrf_of(client)}, follow_redirects=False)
    assert r.status_code == 303
    assert thief.get("/api/v1/auth/me").status_code == 401


def test_log_out_everywhere_ends_every_session(client: TestClient) -> None:
    signup(client, password=GOOD)
    other = TestClient(client.app)
    r = other.post("/api/v1/auth/login", json={"username": "alice", "password": GOOD})
    assert r.status_code == 200
    thief = _copy(client)
    r = other.post(
        "/logout/everywhere", data={"csrf_token": csrf_of(other)}, follow_redirects=False
    )
    assert r.status_code == 303
    for c in (client, other, thief):
        assert c.get("/api/v1/auth/me").status_code == 401


def test_each_log_in_is_its_own_session(client: TestClient, engine: Engine) -> None:
    csrf = signup(client, password=GOOD)
    other = TestClient(client.app)
    other.post("/api/v1/auth/login", json={"username": "alice", "password": GOOD})
    client.post("/api/v1/auth/logout", headers={"X-CSRF-Token": csrf})
    assert other.get("/api/v1/auth/me").status_code == 200  # only the one logged out ends
    with Session(engine) as s:
        assert len(s.exec(select(UserSession)).all()) == 1


def test_a_session_past_its_expiry_is_refused(client: TestClient, engine: Engine) -> None:
    from datetime import timedelta

    from app.models import utcnow

    signup(client, password=GOOD)
    with Session(engine) as s:
        row = s.exec(select(UserSession)).one()
        row.expires_at = utcnow() - timedelta(seconds=1)
        s.add(row)
        s.commit()
    assert client.get("/api/v1/auth/me").status_code == 401
