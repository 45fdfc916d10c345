"""A language the workers cannot grade (#41): when every live worker of a GPU kind reports its
known-good sample failed (app/workers.py), the API and the editor say so, a submission in it is
answered "not available" at once (never queued, never a runtime_error) and counts for nothing;
an old report, one still testing, or a kind without reports blocks nothing. On SQLite and
PostgreSQL (the ``client`` fixture's databases)."""

from __future__ import annotations

import html
import json
import re
from datetime import timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app import stats, workers
from app.accounts import create_admin
from app.models import Submission, User, WorkerReport, utcnow
from tests.app.conftest import Queue, csrf_of, signup

BROKEN = "import numba: AttributeError: module 'numpy' has no attribute 'row_stack'"
NOT_AVAILABLE = "Numba is not available on this server's GPU workers right now"
NUMBA = "from numba import cuda\n\ndef solve(a, b, c, n):\n    pass\n"


def _report(engine: Engine, name: str, kind: str, numba: str, seen_ago_s: float = 0) -> None:
    """A worker's row as worker/selftest.py writes it: Numba ``numba``, Triton ok."""
    workers.start(engine, name, kind, ["triton", "numba"])
    workers.save_environment(engine, name, {"python": "3.11.7", "gpu": None})
    workers.save_language(engine, name, {"name": "triton", "status": "ok", "verdict": "accepted"})
    error = BROKEN if numba == "unavailable" else ""
    workers.save_language(engine, name, {"name": "numba", "status": numba, "error": error})
    if numba != "testing":
        workers.finish(engine, name)
    with Session(engine) as s:
        row = s.get(WorkerReport, name)
        assert row is not None
        row.seen_at = utcnow() - timedelta(seconds=seen_ago_s)
        s.add(row)
        s.commit()


def _submit(
    c: TestClient, csrf: str, language: str = "numba", mode: str = "submit"
) -> dict[str, Any]:
    body = {"problem": "toy-add", "language": language, "source": NUMBA, "mode": mode}
    r = c.post("/api/v1/submissions", json=body, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_a_submission_in_an_unavailable_language_is_answered_not_available(
    client: TestClient, engine: Engine, queue: Queue
) -> None:
    _report(engine, "w1@gpu-host", "cpu", "unavailable")
    csrf = signup(client)
    sub = _submit(client, csrf)
    assert queue == []  # never sent to a worker
    assert (sub["status"], sub["verdict"]) == ("done", "unavailable")
    assert (
        sub["message"].startswith(NOT_AVAILABLE) and "does not count against you" in sub["message"]
    )
    detail = client.get(f"/api/v1/submissions/{sub['id']}").json()
    assert detail["result"]["verdict"] == "unavailable" and detail["result"]["cases"] == []
    assert "internal" not in detail["result"]  # the self-test's error is for admins
    # Counts for nothing: no judged submission in the acceptance rate, nor in the history.
    with Session(engine) as s:
        assert stats.acceptance(s).get("toy-add", (0, 0)) == (0, 0)
        row = s.get(Submission, sub["id"])
        assert row is not None
        assert stats.history(s, row.user_id, "toy-add", "cpu") == []
    listed = client.get("/api/v1/problems").json()
    assert [p["judged"] for p in listed if p["slug"] == "toy-add"] == [0]
    assert 'class="tried-mark"' not in client.get("/problems").text  # not even attempted
    # Shown apart from a wrong answer: its own label, not red.
    page = client.get(f"/submissions/{sub['id']}").text
    assert 'class="verdict-banner verdict-unavailable"' in page and "Not Available" in page
    assert NOT_AVAILABLE in html.unescape(page)
    # Another GPU kind, and another language, are graded as before.
    assert _submit(client, csrf, language="triton")["status"] == "queued"
    assert (
        client.post(
            "/api/v1/submissions",
            json={"problem": "toy-add", "language": "numba", "source": NUMBA, "gpu_kind": "h100"},
            headers={"X-CSRF-Token": csrf},
        ).json()["status"]
        == "queued"
    )
    assert [k for _, k in queue] == ["cpu", "h100"]


def test_the_api_and_the_editor_show_the_language_unavailable(
    client: TestClient, engine: Engine
) -> None:
    _report(engine, "w1@gpu-host", "cpu", "unavailable")
    langs = {x["name"]: x for x in client.get("/api/v1/languages").json()}
    assert langs["numba"]["availability"] == {
        "cpu": {"available": False, "reason": BROKEN},
        "h100": {"available": True, "reason": ""},  # no worker of that kind has reported
    }
    assert langs["triton"]["availability"]["cpu"] == {"available": True, "reason": ""}
    detail = client.get("/api/v1/problems/toy-add").json()
    assert detail["availability"]["numba"]["cpu"]["available"] is False
    assert detail["availability"]["pallas"]["cpu"]["available"] is True  # not in the report
    page = client.get("/problems/toy-add").text
    m = re.search(r'<script type="application/json" id="problem-data">(.*?)</script>', page, re.S)
    assert m
    support = json.loads(m.group(1))["support"]
    assert support["cpu"]["numba"]["available"] is False
    assert support["cpu"]["numba"]["reason"] == f"{NOT_AVAILABLE}: {BROKEN}"
    assert support["cpu"]["triton"]["available"] is True and support["h100"]["numba"]["available"]
    assert 'id="lang-note"' in page


def test_only_live_workers_that_all_fail_make_a_language_unavailable(engine: Engine) -> None:
    def missing() -> dict[str, str]:
        with Session(engine) as s:
            return workers.unavailable(s, ["cpu"])["cpu"]

    assert missing() == {}  # no report yet: nothing is blocked
    _report(engine, "old@host", "cpu", "unavailable", seen_ago_s=workers.LIVE_S + 60)
    assert missing() == {}  # a worker not seen for long counts for nothing
    _report(engine, "new@host", "cpu", "testing")
    assert missing() == {}  # a language not tested yet is available
    _report(engine, "new@host", "cpu", "unavailable")
    assert missing() == {"numba": BROKEN}
    _report(engine, "other@host", "cpu", "ok")
    assert missing() == {}  # one live worker of the kind grades it


def test_the_admin_page_shows_each_worker(client: TestClient, engine: Engine) -> None:
    _report(engine, "worker-h100-gpu0@gpu-host", "h100", "unavailable")
    with Session(engine) as s:
        create_admin(s, "teacher", "teacher-pass")
    client.post("/api/v1/auth/login", json={"username": "teacher", "password": "teacher-pass"})
    page = client.get("/admin").text
    assert 'data-worker="worker-h100-gpu0@gpu-host"' in page
    assert "Python 3.11.7" in page and BROKEN in html.unescape(page)
    assert 'class="badge status-unavailable"' in page and 'class="badge status-ok"' in page
    api = client.get("/api/v1/admin/workers", headers={"X-CSRF-Token": csrf_of(client)}).json()
    [w] = api
    assert (w["name"], w["gpu_kind"], w["live"], w["testing"]) == (
        "worker-h100-gpu0@gpu-host",
        "h100",
        True,
        False,
    )
    assert [x["name"] for x in w["languages"]] == ["triton", "numba"]  # the menu's order
    assert w["languages"][1]["error"] == BROKEN


def test_a_not_available_answer_is_no_attempt_in_a_class_gradebook(engine: Engine) -> None:
    from datetime import UTC, datetime

    from app.classes import assignments, grades, service
    from app.classes.models import Rule
    from app.classes.schemas import AssignmentCreate, ProblemRule
    from app.problems import ProblemRegistry
    from tests.app.classes.test_grading import _class
    from tests.class_factories import judged
    from tests.conftest import FIXTURE_PROBLEMS

    now = datetime.now(UTC).replace(microsecond=0)
    cid, prof = _class(engine, "cpu")
    reg = ProblemRegistry(FIXTURE_PROBLEMS)
    reg.reload()
    with Session(engine) as s:
        course = service.get_course(s, cid, s.get(User, prof))
        assignments.create(
            s,
            course,
            AssignmentCreate(
                title="correct",
                opens_at=now - timedelta(days=1),
                due_at=now + timedelta(days=1),
                problems=[ProblemRule(problem="toy-add", rule=Rule.CORRECTNESS, points=10)],
            ),
            reg,
        )
    wrong = judged(engine, "kid", now - timedelta(hours=2), verdict="wrong_answer")
    judged(engine, "kid", now - timedelta(hours=1), verdict="unavailable")

    def cell() -> Any:
        with Session(engine) as s:
            book = grades.build(s, service.get_course(s, cid, s.get(User, prof)))
            return next(iter(book.rows[0].cells.values()))

    got = cell()
    # One attempt (the wrong answer), shown as the newest: the "not available" one is no attempt.
    assert (got.attempts, got.submission_id, got.verdict) == (1, wrong, "wrong_answer")
