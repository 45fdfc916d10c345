"""Personal tokens end with the sessions (issue 36): a password change, an admin's reset and
"log out everywhere" revoke the user's API tokens too, unless the user themselves unticks
"also revoke my API tokens" (password change, log out everywhere)."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.accounts import create_admin
from tests.app.conftest import csrf_of, signup

PASSWORD = "kernel-dojo-pass"
NEW = "a-brand-new-passphrase"


def _token(c: TestClient, csrf: str) -> str:
    r = c.post("/api/v1/tokens", json={"name": "ci"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 201, r.text
    return str(r.json()["token"])


def _works(client: TestClient, token: str) -> bool:
    anon = TestClient(client.app)
    return (
        anon.get("/api/v1/auth/me", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    )


def _login(c: TestClient, password: str = PASSWORD) -> str:
    r = c.post("/api/v1/auth/login", json={"username": "alice", "password": password})
    assert r.status_code == 200, r.text
    return csrf_of(c)


def test_a_password_change_revokes_tokens(client: TestClient) -> None:
    csrf = signup(client, "alice", PASSWORD)
    token = _token(client, csrf)
    assert _works(client, token)
    form = {"csrf_token": csrf, "current_password": PASSWORD, "new_password": NEW}
    r = client.post("/settings/password", data={**form, "confirm_password": NEW})
    assert r.status_code == 200 and "API tokens" in r.text
    assert not _works(client, token)


def test_a_password_change_may_keep_tokens_when_unticked(client: TestClient) -> None:
    csrf = signup(client, "alice", PASSWORD)
    token = _token(client, csrf)
    form = {"csrf_token": csrf, "current_password": PASSWORD, "new_password": NEW}
    # The form's hidden "0" alone: the box was unticked.
    data = {**form, "confirm_password": NEW, "revoke_tokens": "0"}
    assert client.post("/settings/password", data=data).status_code == 200
    assert _works(client, token)


def test_log_out_everywhere_revokes_tokens(client: TestClient) -> None:
    csrf = signup(client, "alice", PASSWORD)
    kept, gone = _token(client, csrf), _token(client, csrf)
    # The page, box unticked: sessions end, tokens stay.
    r = client.post("/logout/everywhere", data={"csrf_token": csrf, "revoke_tokens": "0"})
    assert r.status_code == 200 and _works(client, kept)
    # The page with the box ticked (the default), then the API by default.
    csrf = _login(client)
    client.post("/logout/everywhere", data={"csrf_token": csrf, "revoke_tokens": ["0", "1"]})
    assert not _works(client, kept) and not _works(client, gone)
    csrf = _login(client)
    token = _token(client, csrf)
    r = client.post("/api/v1/auth/logout-everywhere", headers={"X-CSRF-Token": csrf})
    assert r.status_code == 204 and not _works(client, token)
    csrf = _login(client)
    token = _token(client, csrf)
    r = client.post(
        "/api/v1/auth/logout-everywhere",
        json={"revoke_tokens": False},
        headers={"X-CSRF-Token": csrf},
    )
    assert r.status_code == 204 and _works(client, token)


def test_an_admin_reset_revokes_tokens(client: TestClient, engine: Engine) -> None:
    csrf = signup(client, "alice", PASSWORD)
    token = _token(client, csrf)
    with Session(engine) as s:
        create_admin(s, "boss", "boss-password-1")
    boss = TestClient(client.app)
    boss.post("/api/v1/auth/login", json={"username": "boss", "password": "boss-password-1"})
    r = boss.post(
        "/admin/users/password",
        data={"csrf_token": csrf_of(boss), "username": "alice", "new_password": NEW},
    )
    assert r.status_code == 200 and "tokens" in r.text
    assert not _works(client, token)
