"""The Host header builds nothing (issue 36): reset links come from PUBLIC_URL (or, on
loopback, from the server's own socket), never from ``Host``; a trusted-host list refuses
other names; redirects are relative, so no ``Location`` reflects a forged host."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app import mail
from app.accounts import create_admin
from app.core.config import Settings
from app.main import create_app
from tests.app.conftest import Queue, csrf_of, signup

EVIL = {"host": "evil.example"}


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    bodies: list[str] = []

    def fake_send(settings: Settings, to: str, subject: str, body: str) -> None:
        bodies.append(body)

    monkeypatch.setattr(mail, "send", fake_send)
    return bodies


def _smtp(settings: Settings, **over: Any) -> Settings:
    return settings.model_copy(
        update={"SMTP_HOST": "127.0.0.1", "SMTP_FROM": "dojo@example.edu", **over}
    )


def _ask_reset(c: TestClient, **kw: Any) -> Any:
    signup(c, "alice")
    c.post("/settings/account/email", data={"csrf_token": csrf_of(c), "email": "a@uni.edu"})
    c.cookies.clear()
    csrf = csrf_of(c, "/password/forgot")
    return c.post("/password/forgot", data={"csrf_token": csrf, "who": "alice"}, **kw)


def test_no_reset_mail_from_the_host_header(
    settings: Settings, queue: Queue, sent: list[str]
) -> None:
    with TestClient(create_app(_smtp(settings), enqueue=queue)) as c:
        r = _ask_reset(c, headers=EVIL)
        assert sent == []  # no link at all rather than one to evil.example
        assert r.status_code == 503 and "PUBLIC_URL" in r.text
        with Session(c.app.state.engine) as db:  # type: ignore[attr-defined]
            create_admin(db, "boss", "boss-password-1")
        c.post("/api/v1/auth/login", json={"username": "boss", "password": "boss-password-1"})
        assert 'id="no-public-url"' in c.get("/admin").text  # the admin is told why


def test_on_loopback_the_link_names_the_servers_socket(
    settings: Settings, queue: Queue, sent: list[str]
) -> None:
    app = create_app(_smtp(settings), enqueue=queue)
    with TestClient(app, base_url="http://127.0.0.1:8000", client=("127.0.0.1", 50000)) as c:
        r = _ask_reset(c, headers=EVIL)
    assert r.status_code == 200 and len(sent) == 1
    assert "http://127.0.0.1:8000/password/reset?token=" in sent[0] and "evil" not in sent[0]


def test_public_url_makes_the_links_and_the_trusted_hosts(
    settings: Settings, queue: Queue, sent: list[str]
) -> None:
    s = _smtp(settings, PUBLIC_URL="https://dojo.example.edu")
    with TestClient(create_app(s, enqueue=queue), base_url="https://dojo.example.edu") as c:
        r = _ask_reset(c)
        assert r.status_code == 200 and "https://dojo.example.edu/password/reset?token=" in sent[0]
        assert c.get("/problems", headers=EVIL).status_code == 400
        assert c.get("/problems", headers={"host": "127.0.0.1:8000"}).status_code == 200


def test_an_explicit_trusted_host_list(settings: Settings, queue: Queue) -> None:
    s = settings.model_copy(update={"ALLOWED_HOSTS": ["dojo.example.edu"]})
    with TestClient(create_app(s, enqueue=queue), base_url="http://dojo.example.edu") as c:
        assert c.get("/problems").status_code == 200
        assert c.get("/problems", headers=EVIL).status_code == 400


def test_redirects_are_relative(client: TestClient) -> None:
    r = client.get("/problems/", headers=EVIL, follow_redirects=False)
    assert r.status_code in (307, 308) and r.headers["location"] == "/problems"
    r = client.get("/settings/account", headers=EVIL, follow_redirects=False)
    assert r.status_code == 303 and not r.headers["location"].startswith("http")
