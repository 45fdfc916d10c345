"""Odd input gets a clear 4xx, never a 500 (issue 18, point 10), on SQLite and PostgreSQL;
and a submission made while the broker is down is kept and sent when it returns."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app import submissions
from app.core.config import Settings
from app.main import create_app
from app.models import Status, Submission
from tests.app.conftest import signup
from tests.conftest import free_port

GOOD = "import triton\n\ndef solve(a, b, c, n):\n    pass\n"
BIG = str(2**63)


def _json(body: dict[str, str], **headers: str) -> dict[str, object]:
    """Keyword arguments for a JSON request whose text may hold escaped lone surrogates."""
    h = {"content-type": "application/json", **headers}
    return {"content": json.dumps(body).encode(), "headers": h}


def _clear_4xx(r: object, *words: str) -> None:
    status, body = r.status_code, r.text  # type: ignore[attr-defined]
    assert 400 <= status < 500, (status, body)
    for w in words:
        assert w in body, (w, body)


def test_nul_bytes_and_surrogates_in_text(client: TestClient) -> None:
    csrf = signup(client)
    h = {"X-CSRF-Token": csrf}
    sub = {"problem": "toy-add", "language": "triton"}
    r = client.post("/api/v1/submissions", json={**sub, "source": GOOD + "\x00"}, headers=h)
    _clear_4xx(r, "NUL")
    kw = _json({**sub, "source": GOOD + "\ud800"}, **h)
    r = client.post("/api/v1/submissions", **kw)
    _clear_4xx(r, "escape")  # pydantic's JSON parser refuses it
    _clear_4xx(client.get("/api/v1/submissions?problem=%00"), "NUL")
    _clear_4xx(client.get("/api/v1/problems/a%00b"))
    _clear_4xx(client.get("/users/a%00b"), "NUL")
    _clear_4xx(client.get("/api/v1/leaderboard/toy-add?gpu=%00"), "NUL")
    # Every URL with a NUL or a byte that is not UTF-8, whether or not the value reaches the
    # database (pages fall back to a default filter), is refused with the reason.
    for path in ("/leaderboard?gpu=%00", "/leaderboard/toy-add?gpu=%00", "/problems?q=%00"):
        _clear_4xx(client.get(path), "NUL")
    _clear_4xx(client.get("/problems?q=%ff"), "UTF-8")
    _clear_4xx(client.get("/api/v1/problems?x=%c3%28"), "UTF-8")
    assert client.get("/problems?q=%C3%A9").status_code == 200  # é is fine
    other = TestClient(client.app)
    for body in (
        {"username": "a\x00b", "password": "password123"},
        {"username": "alice", "password": "pass\ud800word123"},
        {"username": "al\ud800ce", "password": "password123"},
    ):
        _clear_4xx(other.post("/api/v1/auth/login", **_json(body)))
        _clear_4xx(other.post("/api/v1/auth/signup", **_json(body)))
    _clear_4xx(other.post("/login", data={"username": "a\x00b", "password": "password123"}))
    r = client.post("/api/v1/tokens", json={"name": "t\x00"}, headers=h)
    _clear_4xx(r)


def test_ids_beyond_64_bits_and_negative_limits(client: TestClient) -> None:
    signup(client)
    for path in (
        f"/api/v1/submissions/{BIG}",
        f"/api/v1/submissions/{BIG}/events",
        f"/submissions/{BIG}",
        f"/api/v1/submissions/-{BIG}0",
    ):
        _clear_4xx(client.get(path), "out of range")
    _clear_4xx(client.get("/api/v1/submissions?limit=-1"))
    _clear_4xx(client.get("/api/v1/submissions?limit=0"))
    assert client.get("/api/v1/submissions?limit=1").status_code == 200


@pytest.fixture
def broker_down(settings: Settings) -> Callable[[int, str, str], None]:
    """The real Celery enqueue, pointed at a Redis address where nothing listens."""
    from app.queue import TASK_NAME, make_celery

    down = settings.model_copy(update={"REDIS_URL": f"redis://127.0.0.1:{free_port()}/0"})
    app = make_celery(down)

    def enqueue(sub_id: int, kind: str, mode: str, requeued: bool = False) -> None:
        app.send_task(TASK_NAME, args=[sub_id], queue=kind)

    return enqueue


def test_submitting_while_the_broker_is_down(
    settings: Settings, engine: Engine, broker_down: Callable[[int, str, str], None]
) -> None:
    with TestClient(create_app(settings, enqueue=broker_down)) as c:
        csrf = signup(c)
        body = {"problem": "toy-add", "language": "triton", "source": GOOD}
        r = c.post("/api/v1/submissions", json=body, headers={"X-CSRF-Token": csrf})
        assert r.status_code == 202, r.text
        assert "queued" in r.json()["notice"] and "No need to submit again" in r.json()["notice"]
        sid = r.json()["id"]
    with Session(engine) as s:
        row = s.get(Submission, sid)
        assert row is not None and row.status == Status.QUEUED
    # The broker is back: the sweeper's next pass sends it, without waiting RESEND_QUEUED_AFTER_S.
    sent: list[tuple[int, str]] = []
    resent = submissions.sweep(
        engine, settings.STUCK_AFTER_S, lambda i, k, m, requeued=False: sent.append((i, k)), 600
    )
    assert resent == [sid] and sent == [(sid, "cpu")]
