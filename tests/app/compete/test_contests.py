"""Contests (issue 40) through the API, on SQLite and PostgreSQL: who may create one and the
refusals' reasons; a contest with a frozen board, late joiners, the final re-run queued as real
gradings and the reveal with its notifications; the reminder; virtual participation; a class
contest hidden from outsiders; the CLI's lines. Phases are reached by moving the contest's
times in the database, as the clock would."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app import submissions
from app.compete import cli, ticks
from app.compete.models import Contest, ContestRerun
from app.models import Submission
from app.social.models import Notification
from tests.app.conftest import Queue
from tests.app.social.helpers import learner
from tests.class_factories import judged, user_client

NOW = datetime.now(UTC).replace(microsecond=0)


@pytest.fixture(autouse=True)
def _fresh_now() -> None:
    """Each test's times from its own start (a module-wide one drifts over a long run)."""
    global NOW
    NOW = datetime.now(UTC).replace(microsecond=0)


def _iso(d: datetime) -> str:
    return d.isoformat()


def _teacher(client: TestClient, name: str = "teach") -> TestClient:
    c, csrf = user_client(client, name, instructor=True)
    c.headers["X-CSRF-Token"] = csrf
    return c


def _body(**kw: Any) -> dict[str, Any]:
    b: dict[str, Any] = {
        "title": "Lab 3",
        "problems": ["toy-add"],
        "start_at": _iso(NOW - timedelta(minutes=30)),
        "end_at": _iso(NOW + timedelta(minutes=30)),
        "gpu_kind": "h100",
    }
    b.update(kw)
    return b


def _move(engine: Engine, cid: int, start: datetime, end: datetime) -> None:
    with engine.begin() as c:
        c.execute(sa.update(Contest).where(Contest.id == cid).values(start_at=start, end_at=end))  # type: ignore[arg-type]


def _notes(engine: Engine, kind: str) -> list[str]:
    with Session(engine) as s:
        return [n.text for n in s.exec(select(Notification).where(Notification.kind == kind)).all()]


def test_who_creates_and_the_refusals(client: TestClient) -> None:
    ada, teach = learner(client, "ada"), _teacher(client)
    r = ada.post("/api/v1/contests", json=_body())
    assert r.status_code == 403 and "admins and instructors" in r.json()["detail"]
    for bad, why in [
        (_body(problems=["nope"]), "unknown problem(s): nope"),
        (_body(end_at=_iso(NOW - timedelta(hours=1))), "the end must come after the start"),
        (
            _body(start_at=_iso(NOW - timedelta(hours=2)), end_at=_iso(NOW - timedelta(hours=1))),
            "already past",
        ),
        (_body(freeze_minutes=60), "frozen for the whole contest"),
        (_body(gpu_kind="tpu"), "unknown GPU kind 'tpu'"),
        (_body(course_id=999), "no such class"),
        (_body(problems=["toy-add", "toy-add"]), "listed twice"),
    ]:
        r = teach.post("/api/v1/contests", json=bad)
        assert r.status_code in (400, 404) and why in r.json()["detail"], (why, r.text)
    r = teach.post("/api/v1/contests", json=_body(problems=[]))
    assert r.status_code == 422
    r = teach.post("/api/v1/contests", json=_body())
    assert r.status_code == 201 and r.json()["phase"] == "running"
    assert "100 points" in r.json()["scoring"]


def test_frozen_board_rerun_and_reveal(client: TestClient, engine: Engine, queue: Queue) -> None:
    teach = _teacher(client)
    ada, bo = learner(client, "ada"), learner(client, "bob")
    body = _body(freeze_minutes=10, rerun=True, end_at=_iso(NOW + timedelta(minutes=5)))
    cid = teach.post("/api/v1/contests", json=body).json()["id"]
    assert ada.post(f"/api/v1/contests/{cid}/join").json()["virtual"] is False
    judged(engine, "ada", NOW - timedelta(minutes=40), score_ms=9.0, gpu_kind="h100")  # before
    judged(engine, "ada", NOW - timedelta(minutes=25), verdict="wrong_answer", gpu_kind="h100")
    ada_ok = judged(engine, "ada", NOW - timedelta(minutes=20), score_ms=2.0, gpu_kind="h100")
    judged(engine, "ada", NOW - timedelta(minutes=19), score_ms=1.0, gpu_kind="cpu")  # other GPU
    # bo joins late; his acceptance comes after the freeze (5 minutes before now).
    assert bo.post(f"/api/v1/contests/{cid}/join").status_code == 200
    bo_ok = judged(engine, "bob", NOW - timedelta(minutes=2), score_ms=1.0, gpu_kind="h100")
    frozen = ada.get(f"/api/v1/contests/{cid}/standings").json()
    assert frozen["phase"] == "frozen" and frozen["frozen"] is True
    top = frozen["lines"][0]
    assert (top["username"], top["points"], top["solved"]) == ("ada", 200.0, 1)
    assert top["cells"][0]["tries"] == 1 and top["cells"][0]["minutes"] == 10.0
    assert frozen["lines"][1]["solved"] == 0  # bo's acceptance is behind the freeze
    full = teach.get(f"/api/v1/contests/{cid}/standings").json()  # its creator sees through
    assert full["frozen"] is False and full["lines"][0]["username"] == "bob"
    assert full["lines"][0]["points"] == 200.0 and full["lines"][1]["points"] == 150.0

    _move(engine, cid, NOW - timedelta(minutes=35), NOW - timedelta(seconds=1))  # it ended
    ticks.tick(engine, queue)
    ticks.tick(engine, queue)  # a second tick queues nothing more
    with Session(engine) as s:
        reruns = s.exec(select(ContestRerun).order_by(ContestRerun.original_id)).all()
        assert [r.original_id for r in reruns] == [ada_ok, bo_ok]
        again = [s.get(Submission, r.rerun_id) for r in reruns]
        assert all(x is not None and x.hidden and x.status == "queued" for x in again)
        assert [x.source for x in again if x] == [s.get(Submission, ada_ok).source] * 2  # type: ignore[union-attr]
    assert sorted(sid for sid, _ in queue) == sorted(r.rerun_id for r in reruns)
    judging = ada.get(f"/api/v1/contests/{cid}/standings").json()
    assert judging["phase"] == "judging" and judging["frozen"] is True
    assert judging["rerun_pending"] == 0  # the frozen board says nothing of the re-run
    assert teach.get(f"/api/v1/contests/{cid}/standings").json()["rerun_pending"] == 2
    assert _notes(engine, ticks.CONTEST_RESULTS) == []
    # The re-run's gradings, recorded as a worker does: ada's fails on fresh inputs.
    for r, verdict, ms in [(reruns[0], "wrong_answer", None), (reruns[1], "accepted", 1.5)]:
        attempt = submissions.claim(engine, r.rerun_id, "w", stale_s=60)
        assert attempt is not None
        submissions.record(engine, r.rerun_id, attempt, {"verdict": verdict, "score_ms": ms})
    final = ada.get(f"/api/v1/contests/{cid}/standings").json()
    assert final["phase"] == "final" and final["frozen"] is False
    lines = [(x["username"], x["rank"], x["points"], x["solved"]) for x in final["lines"]]
    assert lines == [("bob", 1, 200.0, 1), ("ada", 2, 0.0, 0)]
    assert final["lines"][0]["cells"][0]["score_ms"] == 1.5
    assert final["lines"][1]["cells"][0]["rerun"] == "wrong_answer"
    notes = sorted(_notes(engine, ticks.CONTEST_RESULTS))
    assert notes == [
        "The results of “Lab 3” are out: you placed 1 of 2 with 200 points.",
        "The results of “Lab 3” are out: you placed 2 of 2 with 0 points.",
    ]
    # A virtual participation after the end: its own board, its own window.
    cy = learner(client, "cyd")
    j = cy.post(f"/api/v1/contests/{cid}/join").json()
    assert j["virtual"] is True
    judged(engine, "cyd", datetime.now(UTC) + timedelta(seconds=1), score_ms=3.0, gpu_kind="h100")
    v = cy.get(f"/api/v1/contests/{cid}/standings?virtual=true").json()
    assert [(x["username"], x["solved"]) for x in v["lines"]] == [("cyd", 1)]
    live = cy.get(f"/api/v1/contests/{cid}/standings").json()
    assert [x["username"] for x in live["lines"]] == ["bob", "ada"]
    page = cy.get(f"/contests/{cid}").text
    assert "Virtual participations" in page and "re-run: wrong_answer" in page
    out = cli.standings_lines(final)
    assert out[0] == "live board (final)"
    assert out[1].startswith("  1. bob") and out[1].endswith(
        "toy-add + 33′ 1.500 ms (re-run: accepted)"
    )


def test_the_reminder_once_and_a_join_while_judging(
    client: TestClient, engine: Engine, queue: Queue
) -> None:
    teach = _teacher(client)
    ada = learner(client, "ada")
    body = _body(
        start_at=_iso(NOW + timedelta(minutes=6)), end_at=_iso(NOW + timedelta(hours=1)), rerun=True
    )
    cid = teach.post("/api/v1/contests", json=body).json()["id"]
    assert ada.get(f"/api/v1/contests/{cid}").json()["phase"] == "upcoming"
    ada.post(f"/api/v1/contests/{cid}/join")
    ticks.tick(engine, queue)
    ticks.tick(engine, queue)
    assert _notes(engine, ticks.CONTEST_STARTS) == ["The contest “Lab 3” starts in 6 minutes."]
    assert "starts in 6 minutes" in ada.get("/notifications").text
    _move(engine, cid, NOW - timedelta(hours=1), NOW - timedelta(seconds=1))
    judged(engine, "ada", NOW - timedelta(minutes=30), score_ms=None, gpu_kind="h100")
    ticks.tick(engine, queue)  # a re-run queued, not done: the results wait
    bo = learner(client, "bob")
    r = bo.post(f"/api/v1/contests/{cid}/join")
    assert r.status_code == 400 and "being judged" in r.json()["detail"]


def test_a_class_contest_is_for_its_members(client: TestClient, engine: Engine) -> None:
    teach = _teacher(client)
    course = teach.post("/api/v1/classes", json={"name": "GPU 101", "gpu_kind": "h100"})
    assert course.status_code == 201, course.text
    code, course_id = course.json()["invite_code"], course.json()["id"]
    cid = teach.post("/api/v1/contests", json=_body(course_id=course_id)).json()["id"]
    member, outsider = learner(client, "ada"), learner(client, "bob")
    assert member.post("/api/v1/classes/join", json={"code": code}).status_code == 200
    assert [c["id"] for c in member.get("/api/v1/contests").json()] == [cid]
    assert outsider.get("/api/v1/contests").json() == []
    assert outsider.get(f"/api/v1/contests/{cid}").status_code == 404
    assert outsider.post(f"/api/v1/contests/{cid}/join").status_code == 404
    assert client.get(f"/contests/{cid}").status_code == 404  # logged out
    assert member.post(f"/api/v1/contests/{cid}/join").status_code == 200
    page = member.get(f"/contests/{cid}").text
    assert 'id="countdown"' in page and "Lab 3" in page and 'id="joined"' in page


def test_the_page_form_creates_a_contest(client: TestClient) -> None:
    teach = _teacher(client)
    page = teach.get("/contests").text
    assert 'id="new-contest"' in page
    form = {
        "csrf_token": teach.headers["X-CSRF-Token"],
        "title": "Friday",
        "problems": ["toy-add"],
        "start_at": (NOW + timedelta(minutes=20)).strftime("%Y-%m-%dT%H:%M"),
        "minutes": "3",
        "freeze_minutes": "1",
        "rerun": "1",
        "gpu_kind": "cpu",
    }
    r = teach.post("/contests", data=form, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/contests/")
    got = teach.get(r.headers["location"]).text
    assert "Friday" in got and "board frozen for the last 1 minute ·" in got
    r = teach.post("/contests", data={**form, "start_at": "soon"}, follow_redirects=True)
    assert "the start is not a date and time" in r.text
    assert 'id="new-contest"' not in learner(client, "ada").get("/contests").text
