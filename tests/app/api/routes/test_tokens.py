"""Issue 18.9: personal tokens have scopes, may expire, and show when they were last used."""

from __future__ import annotations

from datetime import timedelta

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.accounts import create_admin
from app.models import ApiToken, utcnow
from tests.app.conftest import csrf_of, signup

GOOD = "kernel-dojo-pass"
SOURCE = "import triton\n\ndef solve(a, b, c, n):\n    pass\n"


def _token(c: TestClient, csrf: str, **body: object) -> str:
    r = c.post("/api/v1/tokens", json={"name": "t", **body}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 201, r.text
    return str(r.json()["token"])


def _bearer(app: object, token: str) -> TestClient:
    c = TestClient(app)  # type: ignore[arg-type]
    c.headers["Authorization"] = f"Bearer {token}"
    return c


def _submit(c: TestClient) -> int:
    return c.post(
        "/api/v1/submissions",
        json={"problem": "toy-add", "language": "triton", "source": SOURCE, "mode": "run"},
    ).status_code


def test_a_read_token_cannot_submit(client: TestClient) -> None:
    csrf = signup(client, password=GOOD)
    reader = _bearer(client.app, _token(client, csrf, scopes=["read"]))
    assert reader.get("/api/v1/submissions").status_code == 200
    r = reader.post(
        "/api/v1/submissions",
        json={"problem": "toy-add", "language": "triton", "source": SOURCE},
    )
    assert r.status_code == 403 and "lacks the 'submit' scope" in r.json()["detail"]
    submitter = _bearer(client.app, _token(client, csrf, scopes=["submit"]))
    assert _submit(submitter) in (201, 202)
    assert submitter.get("/api/v1/submissions").status_code == 403  # no 'read'


def test_tokens_cannot_mint_tokens(client: TestClient) -> None:
    csrf = signup(client, password=GOOD)
    reader = _bearer(client.app, _token(client, csrf, scopes=["read"]))
    r = reader.post("/api/v1/tokens", json={"name": "more", "scopes": ["submit"]})
    assert r.status_code == 403 and "logged-in session" in r.json()["detail"]
    assert reader.get("/api/v1/tokens").status_code == 403


def test_admin_actions_need_an_admin_scoped_token(client: TestClient, engine: Engine) -> None:
    with Session(engine) as s:
        create_admin(s, "teacher", "teacher-long-pass")
    client.post("/api/v1/auth/login", json={"username": "teacher", "password": "teacher-long-pass"})
    csrf = csrf_of(client)
    plain = _bearer(client.app, _token(client, csrf))  # read + submit
    r = plain.get("/api/v1/admin/signups")
    assert r.status_code == 403 and "'admin' scope" in r.json()["detail"]
    admin = _bearer(client.app, _token(client, csrf, scopes=["admin"]))
    assert admin.get("/api/v1/admin/signups").status_code == 200


def test_only_admins_get_the_admin_scope(client: TestClient) -> None:
    csrf = signup(client, password=GOOD)
    r = client.post(
        "/api/v1/tokens",
        json={"name": "x", "scopes": ["admin"]},
        headers={"X-CSRF-Token": csrf},
    )
    assert r.status_code == 403 and "only admins" in r.json()["detail"]
    r = client.post(
        "/api/v1/tokens", json={"name": "x", "scopes": ["root"]}, headers={"X-CSRF-Token": csrf}
    )
    assert r.status_code == 422


def test_an_expired_token_is_refused(client: TestClient, engine: Engine) -> None:
    csrf = signup(client, password=GOOD)
    token = _token(client, csrf, expires_in_days=7)
    c = _bearer(client.app, token)
    assert c.get("/api/v1/submissions").status_code == 200
    with Session(engine) as s:
        row = s.exec(select(ApiToken)).one()
        assert row.expires_at is not None
        row.expires_at = utcnow() - timedelta(minutes=1)
        s.add(row)
        s.commit()
    r = c.get("/api/v1/submissions")
    assert r.status_code == 401 and "expired" in r.json()["detail"]


def test_tokens_page_shows_scopes_expiry_and_last_use(client: TestClient) -> None:
    csrf = signup(client, password=GOOD)
    r = client.post(
        "/settings/tokens",
        data={"csrf_token": csrf, "name": "laptop", "scopes": ["read"], "expires_in_days": "30"},
    )
    assert r.status_code == 200
    token = r.text.split('id="new-token">')[1].split("<")[0]

    def row() -> str:
        return client.get("/settings/tokens").text.split("<td>laptop</td>")[1].split("</tr>")[0]

    assert ">read<" in row() and row().count("never") == 1  # expires: a date; not used yet
    _bearer(client.app, token).get("/api/v1/problems")
    assert "never" not in row()  # last used: a date now
