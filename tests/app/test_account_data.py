"""Accounts (issue 23, item 8): deleting one's account and data, and password resets by
e-mail where the server has SMTP (a real SMTP conversation with aiosmtpd's in-process server).
Changing one's password and an admin's reset are tests/app/test_account_rules.py."""

from __future__ import annotations

import re
from collections.abc import Iterator
from email import message_from_bytes
from email.message import Message

import pytest
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app import resets
from app.accounts import create_admin
from app.classes.models import Course, CourseMember
from app.core.config import Settings
from app.main import create_app
from app.models import ApiToken, Draft, Submission, User, UserSession
from tests.app.conftest import Queue, csrf_of, signup
from tests.app.test_capabilities import finish, submit
from tests.conftest import free_port

PASSWORD = "kernel-dojo-pass"


def delete(c: TestClient, password: str = PASSWORD, confirm: str = "alice") -> str:
    r = c.post(
        "/settings/account/delete",
        data={"csrf_token": csrf_of(c), "password": password, "confirm_username": confirm},
    )
    return f"{r.status_code} {r.text}"


def counts(engine: Engine, uid: int) -> dict[str, int]:
    with Session(engine) as s:
        return {
            "user": len(s.exec(select(User).where(User.id == uid)).all()),
            "submission": len(s.exec(select(Submission).where(Submission.user_id == uid)).all()),
            "draft": len(s.exec(select(Draft).where(Draft.user_id == uid)).all()),
            "token": len(s.exec(select(ApiToken).where(ApiToken.user_id == uid)).all()),
            "session": len(s.exec(select(UserSession).where(UserSession.user_id == uid)).all()),
        }


def uid_of(engine: Engine, name: str) -> int:
    with Session(engine) as s:
        u = s.exec(select(User).where(User.username == name)).one()
        assert u.id is not None
        return u.id


def test_deleting_my_account_deletes_my_data(client: TestClient, engine: Engine) -> None:
    csrf = signup(client, "alice")
    finish(engine, submit(client), "accepted")
    client.put(
        "/api/v1/drafts/toy-add/triton", json={"source": "#"}, headers={"X-CSRF-Token": csrf}
    )
    client.post("/settings/tokens", data={"csrf_token": csrf_of(client), "name": "laptop"})
    bob = TestClient(client.app)
    signup(bob, "bob")
    finish(engine, submit(bob), "accepted")
    alice, bob_id = uid_of(engine, "alice"), uid_of(engine, "bob")
    assert all(counts(engine, alice).values())
    assert delete(client, confirm="bob").startswith("422")  # the confirmation must be one's name
    assert delete(client, password="wrong-password-1").startswith("400")
    assert all(counts(engine, alice).values())
    out = delete(client)
    assert out.startswith("200") and "Account deleted" in out
    assert counts(engine, alice) == dict.fromkeys(counts(engine, alice), 0)
    assert counts(engine, bob_id)["submission"] == 1  # nobody else's data goes
    assert "Log in" in client.get("/problems").text  # and this browser is logged out
    assert client.get("/users/alice").status_code == 404


def test_the_last_admin_and_a_shared_class_are_not_deleted(
    client: TestClient, engine: Engine
) -> None:
    signup(client, "alice")
    with Session(engine) as s:
        create_admin(s, "alice", PASSWORD)
    assert "only admin" in delete(client)
    with Session(engine) as s:
        create_admin(s, "carol", "another-dojo-pass")  # a second admin: alice may go
        alice = uid_of(engine, "alice")
        course = Course(
            name="GPU 101", invite_code="gpu101-code-xyz", gpu_kind="cpu", created_by=alice
        )
        s.add(course)
        s.commit()
        s.refresh(course)
        assert course.id is not None
        s.add(CourseMember(course_id=course.id, user_id=uid_of(engine, "carol")))
        s.commit()
    out = delete(client)
    assert out.startswith("409") and "coursemember" in out  # carol's membership would go
    assert counts(engine, alice)["user"] == 1


# --- resets by e-mail -----------------------------------------------------------------------


class Inbox:
    def __init__(self) -> None:
        self.mails: list[Message] = []

    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        self.mails.append(message_from_bytes(envelope.content))  # type: ignore[attr-defined]
        return "250 OK"


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    box = Inbox()
    port = free_port()
    ctl = Controller(box, hostname="127.0.0.1", port=port)
    ctl.start()
    yield box, port
    ctl.stop()


@pytest.fixture
def mailing(settings: Settings, inbox: tuple[Inbox, int], queue: Queue) -> Iterator[TestClient]:
    smtp = settings.model_copy(
        update={
            "SMTP_HOST": "127.0.0.1",
            "SMTP_PORT": inbox[1],
            "SMTP_SECURITY": "none",
            "SMTP_FROM": "KernelDojo <dojo@example.edu>",
            "PUBLIC_URL": "https://dojo.example.edu",
        }
    )
    # PUBLIC_URL's host is the trusted one (app/core/hosts.py).
    with TestClient(create_app(smtp, enqueue=queue), base_url="https://dojo.example.edu") as c:
        yield c


def link_in(mail: Message) -> str:
    body = mail.get_payload(decode=True).decode()  # type: ignore[union-attr]
    m = re.search(r"https://dojo\.example\.edu(/password/reset\?token=\S+)", body)
    assert m, body
    return m.group(1)


def test_a_reset_link_by_email(mailing: TestClient, inbox: tuple[Inbox, int]) -> None:
    box, _ = inbox
    c = mailing
    signup(c, "alice")
    assert "E-mail for password resets" in c.get("/settings/account").text
    r = c.post(
        "/settings/account/email", data={"csrf_token": csrf_of(c), "email": "not-an-address"}
    )
    assert "does not look like an e-mail address" in r.text
    r = c.post("/settings/account/email", data={"csrf_token": csrf_of(c), "email": "Alice@Uni.edu"})
    assert "Password resets will be sent to Alice@Uni.edu" in r.text
    c.cookies.clear()
    for who in ("alice@uni.edu", "nobody-here"):  # the same answer either way
        r = c.post(
            "/password/forgot", data={"csrf_token": csrf_of(c, "/password/forgot"), "who": who}
        )
        assert r.status_code == 200 and "a link to choose a new password is on its way" in r.text
    assert len(box.mails) == 1
    mail = box.mails[0]
    assert mail["To"] == "Alice@Uni.edu" and "Reset your KernelDojo password" in mail["Subject"]
    link = link_in(mail)
    form = c.get(link)
    assert form.status_code == 200 and "For alice" in form.text
    token = link.split("token=")[1]
    new = {"csrf_token": csrf_of(c, link), "token": token, "confirm_password": "x"}
    r = c.post("/password/reset", data={**new, "new_password": "short"})
    assert r.status_code == 422
    fresh = "a-brand-new-passphrase"
    r = c.post(
        "/password/reset",
        data={**new, "new_password": fresh, "confirm_password": fresh},
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"] == "/login?reset=1"
    r = c.post("/api/v1/auth/login", json={"username": "alice", "password": fresh})
    assert r.status_code == 200, r.text
    again = c.get(link)  # one use: the password it was made for has changed
    assert again.status_code == 400 and "already used" in again.text


def test_resets_are_throttled(mailing: TestClient, inbox: tuple[Inbox, int]) -> None:
    signup(mailing, "alice")
    mailing.post(
        "/settings/account/email", data={"csrf_token": csrf_of(mailing), "email": "a@uni.edu"}
    )
    statuses = []
    for _ in range(5):
        r = mailing.post("/password/forgot", data={"csrf_token": csrf_of(mailing), "who": "alice"})
        statuses.append(r.status_code)
    assert statuses[:3] == [200, 200, 200] and statuses[-1] == 429
    # A few mails per account, then none for minutes: only the answered requests sent one.
    assert len(inbox[0].mails) == statuses.count(200) < len(statuses)


def test_without_smtp_an_admin_resets(client: TestClient, settings: Settings) -> None:
    page = client.get("/password/forgot").text
    assert "This server sends no e-mail" in page and "admin" in page
    r = client.post("/password/forgot", data={"csrf_token": csrf_of(client), "who": "alice"})
    assert r.status_code == 404
    signup(client, "alice")
    assert "This server sends no e-mail" in client.get("/settings/account").text
    r = client.post(
        "/settings/account/email", data={"csrf_token": csrf_of(client), "email": "a@b.c"}
    )
    assert r.status_code == 404


def test_a_tampered_or_expired_link_is_refused(client: TestClient, settings: Settings) -> None:
    signup(client, "alice")
    with Session(client.app.state.engine) as s:  # type: ignore[attr-defined]
        user = s.exec(select(User)).one()
        token = resets.make_token(settings, user)
        assert resets.user_for_token(settings, s, token).username == "alice"
        with pytest.raises(resets.ResetError, match="not valid"):
            resets.user_for_token(settings, s, token[:-2] + "xx")
        other = settings.model_copy(update={"SECRET_KEY": "u" * 40})
        with pytest.raises(resets.ResetError, match="not valid"):
            resets.user_for_token(other, s, token)
    assert client.get("/password/reset?token=nonsense").status_code == 400
