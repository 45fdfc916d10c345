"""Who sees what of a submission (issue 18, points 2 and 3): output follows the source's rule,
and "has solved" counts only finished, shown, accepted submissions."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app import submissions
from app.accounts import create_admin
from app.models import Submission
from tests.app.conftest import signup

SECRET = "SECRET_LINE_4242"
GOOD = "import triton\n\ndef solve(a, b, c, n):\n    pass  # " + SECRET + "\n"


def submit(c: TestClient, csrf: str) -> int:
    body = {"problem": "toy-add", "language": "triton", "source": GOOD, "mode": "submit"}
    r = c.post("/api/v1/submissions", json=body, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def finish(engine: Engine, sid: int, verdict: str) -> None:
    attempt = submissions.claim(engine, sid, "test-worker", 60)
    assert attempt
    leaky: dict[str, Any] = {
        "verdict": verdict,
        "message": f'Traceback: File "solution.py", line 4: {SECRET}',
        "cases": [{"name": "n = 3", "passed": False, "message": f"{SECRET} max error"}],
        "benchmark": [],
        "score_ms": None,
        "compile": {"ok": True, "log": f"solution.py:4: warning: {SECRET}", "seconds": 0.1},
        "stdout": f"def solve(a, b, c, n):  # {SECRET}",
        "warnings": [f"kernel quoting {SECRET}"],
        "device": "cpu-interpreter",
    }
    if verdict == "accepted":
        leaky["cases"][0]["passed"] = True
    assert submissions.record(engine, sid, attempt, leaky)


def other(client: TestClient) -> TestClient:
    return TestClient(client.app)


def test_error_output_follows_source_visibility(client: TestClient, engine: Engine) -> None:
    csrf = signup(client, "alice")
    sid = submit(client, csrf)
    finish(engine, sid, "runtime_error")

    # The author sees everything.
    mine = client.get(f"/api/v1/submissions/{sid}").json()
    assert mine["source"] and SECRET in mine["message"] and SECRET in mine["result"]["stdout"]
    assert SECRET in client.get(f"/submissions/{sid}").text

    # Anonymous and a learner who has not solved it: verdict and per-case pass/fail only.
    bob = other(client)
    signup(bob, "bobby")
    for viewer in (other(client), bob):
        r = viewer.get(f"/api/v1/submissions/{sid}")
        assert r.status_code == 200 and SECRET not in r.text
        d = r.json()
        assert d["source"] is None and d["verdict"] == "runtime_error" and d["message"] == ""
        assert d["result"]["cases"] == [{"name": "n = 3", "passed": False}]
        assert d["result"]["compile"]["ok"] is True and d["result"]["compile"]["log"] == ""
        page = viewer.get(f"/submissions/{sid}")
        assert page.status_code == 200 and SECRET not in page.text
        assert "Runtime Error" in page.text and "n = 3" in page.text
        with viewer.stream("GET", f"/api/v1/submissions/{sid}/events") as ev:
            assert SECRET not in "".join(ev.iter_text())

    # An admin sees everything.
    with Session(engine) as s:
        create_admin(s, "teacher", "kernel-dojo-pass")
    admin = other(client)
    r = admin.post(
        "/api/v1/auth/login", json={"username": "teacher", "password": "kernel-dojo-pass"}
    )
    assert r.status_code == 200
    assert SECRET in admin.get(f"/api/v1/submissions/{sid}").json()["result"]["stdout"]


def _admin(client: TestClient, engine: Engine) -> tuple[TestClient, str]:
    with Session(engine) as s:
        create_admin(s, "teacher", "kernel-dojo-pass")
    admin = other(client)
    admin.post("/api/v1/auth/login", json={"username": "teacher", "password": "kernel-dojo-pass"})
    from tests.app.conftest import csrf_of

    return admin, csrf_of(admin)


def test_hiding_the_accepted_submission_locks_the_code_again(
    client: TestClient, engine: Engine
) -> None:
    csrf = signup(client, "alice")
    alices = submit(client, csrf)
    finish(engine, alices, "wrong_answer")
    bob = other(client)
    bcsrf = signup(bob, "bobby")
    bobs = submit(bob, bcsrf)
    finish(engine, bobs, "accepted")  # say, by breaking a rule the judge missed
    assert bob.get(f"/api/v1/submissions/{alices}").json()["source"] == GOOD
    assert bob.get("/api/v1/problems/toy-add").json()["solved"] is True

    admin, acsrf = _admin(client, engine)
    r = admin.post(
        f"/api/v1/admin/submissions/{bobs}/hide",
        json={"hidden": True},
        headers={"X-CSRF-Token": acsrf},
    )
    assert r.status_code == 200
    d = bob.get(f"/api/v1/submissions/{alices}").json()
    assert d["source"] is None and SECRET not in str(d)
    assert bob.get("/api/v1/problems/toy-add").json()["solved"] is False
    assert SECRET not in bob.get(f"/submissions/{alices}").text


def test_a_rejudge_takes_the_accepted_verdict_away(client: TestClient, engine: Engine) -> None:
    csrf = signup(client, "alice")
    alices = submit(client, csrf)
    finish(engine, alices, "wrong_answer")
    bob = other(client)
    bobs = submit(bob, signup(bob, "bobby"))
    finish(engine, bobs, "accepted")
    assert bob.get(f"/api/v1/submissions/{alices}").json()["source"] == GOOD

    admin, acsrf = _admin(client, engine)
    r = admin.post(f"/api/v1/admin/submissions/{bobs}/rejudge", headers={"X-CSRF-Token": acsrf})
    assert r.status_code == 200
    # Queued again with its old verdict still stored: it no longer counts.
    with Session(engine) as s:
        row = s.get(Submission, bobs)
        assert row is not None and row.verdict == "accepted" and row.status == "queued"
    assert bob.get(f"/api/v1/submissions/{alices}").json()["source"] is None
    finish(engine, bobs, "wrong_answer")  # the rejudge's verdict
    assert bob.get(f"/api/v1/submissions/{alices}").json()["source"] is None
    assert bob.get("/api/v1/problems/toy-add").json()["solved"] is False
