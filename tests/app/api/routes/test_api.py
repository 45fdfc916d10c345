"""The JSON API: accounts, CSRF, tokens, submissions and their errors, leaderboards, admin."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app import submissions
from app.accounts import create_admin
from app.models import Submission
from tests import fake_language
from tests.app.conftest import Queue, signup

GOOD = "import triton\n\ndef solve(a, b, c, n):\n    pass\n"


def _submit(c: TestClient, csrf: str, **kw: object) -> object:
    body = {"problem": "toy-add", "language": "triton", "source": GOOD, "mode": "submit", **kw}
    return c.post("/api/v1/submissions", json=body, headers={"X-CSRF-Token": csrf})


def _finish(engine: Engine, sid: int, verdict: str, score: float | None = None) -> None:
    """Play the worker's part through the same functions the Celery task uses."""
    attempt = submissions.claim(engine, sid, "test-worker", 60)
    assert attempt
    bench = (
        [
            {
                "name": "n = 2^20",
                "median_ms": score,
                "runs": 10,
                "iqr_ms": 0.001,
                "rse_pct": 0.2,
                "min_ms": score,
                "max_ms": score,
                "gbps": 2000.0,
                "tflops": 0.17,
                "sol_ms": score / 2,
                "sol_pct": 50.0,
                "bound": "memory",
            }
        ]
        if score
        else []
    )
    cases = [
        {
            "name": "n = 3",
            "passed": verdict == "accepted",
            "message": "" if verdict == "accepted" else "max error 1.0 at index 2",
            "max_abs_error": 0.0,
        }
    ]
    assert submissions.record(
        engine,
        sid,
        attempt,
        {
            "verdict": verdict,
            "cases": cases,
            "benchmark": bench,
            "score_ms": score,
            "compile": {"ok": True, "log": "", "seconds": 0.1},
            "device": "cpu-interpreter",
            "message": "",
        },
    )


def test_signup_login_logout(client: TestClient) -> None:
    csrf = signup(client)
    assert client.get("/api/v1/auth/me").json()["username"] == "alice"
    assert client.post("/api/v1/auth/logout").status_code == 403  # no CSRF header
    assert client.post("/api/v1/auth/logout", headers={"X-CSRF-Token": csrf}).status_code == 204
    assert client.get("/api/v1/auth/me").status_code == 401
    assert (
        client.post(
            "/api/v1/auth/login", json={"username": "alice", "password": "nope-nope"}
        ).status_code
        == 401
    )
    assert (
        client.post(
            "/api/v1/auth/login", json={"username": "alice", "password": "kernel-dojo-pass"}
        ).status_code
        == 200
    )
    r = client.post(
        "/api/v1/auth/signup", json={"username": "alice", "password": "kernel-dojo-pass"}
    )
    assert r.status_code == 409
    assert (
        client.post(
            "/api/v1/auth/signup", json={"username": "x y", "password": "kernel-dojo-pass"}
        ).status_code
        == 422
    )
    assert (
        client.post(
            "/api/v1/auth/signup", json={"username": "bobby", "password": "short"}
        ).status_code
        == 422
    )


def test_password_is_hashed_with_argon2(client: TestClient, engine: Engine) -> None:
    signup(client)
    from sqlmodel import select

    from app.models import User

    with Session(engine) as s:
        u = s.exec(select(User)).one()
        assert u.password_hash.startswith("$argon2") and "kernel-dojo-pass" not in u.password_hash


def test_submission_errors(client: TestClient, queue: Queue) -> None:
    assert (
        client.post(
            "/api/v1/submissions", json={"problem": "toy-add", "language": "triton", "source": GOOD}
        ).status_code
        == 401
    )
    csrf = signup(client)
    r = _submit(client, csrf, source="   \n")
    assert r.status_code == 422 and "empty" in r.json()["detail"]
    r = _submit(client, csrf, source="x" * 5000)
    assert r.status_code == 413 and "limit is 2000" in r.json()["detail"]
    r = _submit(client, csrf, language="rust")
    assert r.status_code == 422 and "unknown language" in r.json()["detail"]
    r = _submit(client, csrf, problem="nope")
    assert r.status_code == 404 and "unknown problem" in r.json()["detail"]
    r = _submit(client, csrf, gpu_kind="tpu")
    assert r.status_code == 422 and "unknown GPU kind" in r.json()["detail"]
    assert queue == []
    for _ in range(5):
        assert _submit(client, csrf).status_code == 201
    r = _submit(client, csrf)
    assert r.status_code == 429 and "a minute" in r.json()["detail"]
    assert len(queue) == 5


def test_submit_enqueues_only_the_id(client: TestClient, queue: Queue, engine: Engine) -> None:
    csrf = signup(client)
    r = _submit(client, csrf, mode="run", gpu_kind="h100")
    assert r.status_code == 201
    sub = r.json()
    assert (sub["status"], sub["mode"], sub["gpu_kind"]) == ("queued", "run", "h100")
    assert queue == [(sub["id"], "h100")]
    d = client.get(f"/api/v1/submissions/{sub['id']}").json()
    assert d["queue_position"] == 1 and d["source"] == GOOD
    _finish(engine, sub["id"], "wrong_answer")
    d = client.get(f"/api/v1/submissions/{sub['id']}").json()
    assert d["verdict"] == "wrong_answer" and d["result"]["cases"][0]["message"].startswith(
        "max error"
    )
    assert [s["id"] for s in client.get("/api/v1/submissions?problem=toy-add").json()] == [
        sub["id"]
    ]


def test_progress_stream_ends_with_the_verdict(client: TestClient, engine: Engine) -> None:
    csrf = signup(client)
    sid = _submit(client, csrf).json()["id"]
    _finish(engine, sid, "accepted", 0.5)
    with client.stream("GET", f"/api/v1/submissions/{sid}/events") as r:
        text = "".join(r.iter_text())
    assert "event: done" in text
    data = json.loads(text.split("event: done")[1].split("data:")[1].split("\n")[0])
    assert data["verdict"] == "accepted" and data["score_ms"] == 0.5


def test_tokens_authenticate_without_csrf(client: TestClient) -> None:
    csrf = signup(client)
    r = client.post("/api/v1/tokens", json={"name": "cli"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 201
    token = r.json()["token"]
    client.cookies.clear()
    h = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/v1/auth/me", headers=h).json()["username"] == "alice"
    assert (
        client.post(
            "/api/v1/submissions",
            headers=h,
            json={"problem": "toy-add", "language": "triton", "source": GOOD},
        ).status_code
        == 201
    )
    assert (
        client.get("/api/v1/auth/me", headers={"Authorization": "Bearer kd_wrong"}).status_code
        == 401
    )
    # Tokens are managed from a session, not with a token (issue 18.9).
    assert client.get("/api/v1/tokens", headers=h).status_code == 403
    client.post("/api/v1/auth/login", json={"username": "alice", "password": "kernel-dojo-pass"})
    assert client.get("/api/v1/tokens").json()[0]["last_used_at"] is not None


def test_leaderboard_code_visibility_and_acceptance(
    client: TestClient, settings: object, engine: Engine
) -> None:
    csrf_a = signup(client, "alice")
    fast = _submit(client, csrf_a).json()["id"]
    _finish(engine, fast, "accepted", 0.2)
    slow = _submit(client, csrf_a).json()["id"]
    _finish(engine, slow, "accepted", 0.9)
    wrong = _submit(client, csrf_a).json()["id"]
    _finish(engine, wrong, "wrong_answer")
    client.cookies.clear()
    csrf_b = signup(client, "bobby")
    b1 = _submit(client, csrf_b).json()["id"]
    assert client.get(f"/api/v1/submissions/{fast}").json()["source"] is None  # not solved yet
    _finish(engine, b1, "accepted", 0.5)
    assert client.get(f"/api/v1/submissions/{fast}").json()["source"] == GOOD  # solved: may look
    board = client.get("/api/v1/leaderboard/toy-add").json()
    assert [(e["username"], e["submission_id"], e["rank"]) for e in board] == [
        ("alice", fast, 1),
        ("bobby", b1, 2),
    ]
    assert client.get("/api/v1/leaderboard/toy-add?gpu=h100").json() == []
    # A PyTorch submission ranks on the framework track only (#19): torch's own kernels are
    # not compared with learners' kernels.
    torch_sub = _submit(client, csrf_b, language="pytorch").json()["id"]
    _finish(engine, torch_sub, "accepted", 0.01)
    kernel = client.get("/api/v1/leaderboard/toy-add").json()
    assert [e["submission_id"] for e in kernel] == [fast, b1]
    framework = client.get("/api/v1/leaderboard/toy-add?track=framework").json()
    assert [(e["username"], e["submission_id"], e["language"]) for e in framework] == [
        ("bobby", torch_sub, "pytorch")
    ]
    assert client.get("/api/v1/leaderboard/toy-add?track=cobol").status_code == 422
    html = client.get("/leaderboard/toy-add?track=framework").text
    assert "Framework track (PyTorch)" in html and f"/submissions/{torch_sub}" in html
    overall = client.get("/api/v1/leaderboard").json()
    assert [(e["username"], e["solved"]) for e in overall] == [("alice", 1), ("bobby", 1)]
    probs = client.get("/api/v1/problems").json()
    assert probs[0]["accepted"] == 4 and probs[0]["judged"] == 5 and probs[0]["solved"] is True
    assert client.get("/api/v1/problems/nope").status_code == 404
    detail = client.get("/api/v1/problems/toy-add").json()
    assert 'class="math' in detail["statement_html"] and "def solve" in detail["starters"]["triton"]


def test_admin_actions(client: TestClient, engine: Engine, queue: Queue, settings: object) -> None:
    csrf = signup(client, "learner")
    sid = _submit(client, csrf).json()["id"]
    _finish(engine, sid, "accepted", 0.3)
    assert (
        client.post(
            f"/api/v1/admin/submissions/{sid}/hide",
            json={"hidden": True},
            headers={"X-CSRF-Token": csrf},
        ).status_code
        == 403
    )
    with Session(engine) as s:
        create_admin(s, "teacher", "teacher-pass")
    client.cookies.clear()
    client.post("/api/v1/auth/login", json={"username": "teacher", "password": "teacher-pass"})
    from tests.app.conftest import csrf_of

    h = {"X-CSRF-Token": csrf_of(client)}
    assert client.post(
        f"/api/v1/admin/submissions/{sid}/hide", json={"hidden": True}, headers=h
    ).json()["hidden"]
    assert client.get("/api/v1/leaderboard/toy-add").json() == []
    queue.clear()
    assert client.post(f"/api/v1/admin/submissions/{sid}/rejudge", headers=h).json() == {
        "requeued": [sid]
    }
    assert queue == [(sid, "cpu")]
    with Session(engine) as s:
        sub = s.get(Submission, sid)
        assert sub and sub.status == "queued" and sub.attempt == 2
    assert client.post("/api/v1/admin/problems/toy-add/rejudge", headers=h).json() == {
        "requeued": [sid]
    }
    r = client.post("/api/v1/admin/problems/reload", headers=h).json()
    assert r == {"loaded": ["toy-add"], "errors": []}
    # closing sign-ups; a class invite code still lets students in
    r = client.put(
        "/api/v1/admin/signups",
        json={"signups_open": False, "invite_code": "gpu-101-fall-2026"},
        headers=h,
    )
    assert r.json() == {"signups_open": False, "invite_code": "gpu-101-fall-2026"}
    client.cookies.clear()
    r = client.post(
        "/api/v1/auth/signup", json={"username": "late", "password": "kernel-dojo-pass"}
    )
    assert r.status_code == 403 and "closed" in r.json()["detail"]
    r = client.post(
        "/api/v1/auth/signup",
        json={
            "username": "late",
            "password": "kernel-dojo-pass",
            "invite_code": "gpu-101-fall-2026",
        },
    )
    assert r.status_code == 201


def test_reload_reports_a_broken_folder_and_keeps_the_others(
    client: TestClient, engine: Engine
) -> None:
    from tests.conftest import ROOT

    client.app.state.registry.root = ROOT / "tests" / "fixtures" / "broken"  # type: ignore[attr-defined]
    with Session(engine) as s:
        create_admin(s, "teacher", "teacher-pass")
    client.post("/api/v1/auth/login", json={"username": "teacher", "password": "teacher-pass"})
    from tests.app.conftest import csrf_of

    r = client.post(
        "/api/v1/admin/problems/reload", headers={"X-CSRF-Token": csrf_of(client)}
    ).json()
    assert r["loaded"] == ["toy-add"]
    assert len(r["errors"]) == 1 and "bad-toml" in r["errors"][0] and "difficulty" in r["errors"][0]
    assert client.get("/api/v1/problems/toy-add").status_code == 200


def test_openapi_docs_served(client: TestClient) -> None:
    assert client.get("/api/v1/docs").status_code == 200
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    assert "/api/v1/submissions" in paths and "/api/v1/leaderboard/{slug}" in paths


def test_languages_come_from_the_registry(
    client: TestClient, queue: Queue, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = client.get("/api/v1/languages").json()
    assert [lang["name"] for lang in body] == [
        "triton",
        "cuda",
        "pytorch",
        "numba",
        "pallas",
        "helion",
        "mojo",
    ]
    assert body[4] == {
        "name": "pallas",
        "label": "Pallas",
        "menu_label": "JAX Pallas (Python)",
        "suffix": ".py",
        "editor_mode": "python",
        "track": "kernel",
        "runs_on_cpu": True,
        "availability": {  # no worker has reported: every language counts as available
            "cpu": {"available": True, "reason": ""},
            "h100": {"available": True, "reason": ""},
        },
    }
    assert body[1] == {
        "name": "cuda",
        "label": "CUDA",
        "menu_label": "CUDA C++",
        "suffix": ".cu",
        "editor_mode": "cpp",
        "track": "kernel",
        "runs_on_cpu": False,
        "availability": {  # no worker has reported: every language counts as available
            "cpu": {"available": True, "reason": ""},
            "h100": {"available": True, "reason": ""},
        },
    }
    fake_language.register(monkeypatch)  # one more language: every list follows
    assert [lang["name"] for lang in client.get("/api/v1/languages").json()] == [
        "triton",
        "cuda",
        "pytorch",
        "numba",
        "pallas",
        "helion",
        "mojo",
        "fakelang",
    ]
    detail = client.get("/api/v1/problems/toy-add").json()
    assert detail["signatures"]["fakelang"] == "fake solve(a b c n)"
    assert detail["signatures"]["pallas"] == "def solve(a, b, c, n):"
    assert "pl.pallas_call(" in detail["starters"]["pallas"]
    assert detail["starters"]["fakelang"] == "# fake starter\n"
    assert detail["signatures"]["cuda"].startswith('extern "C" void solve(const float* a')
    csrf = signup(client)
    r = _submit(client, csrf, language="fakelang")
    assert r.status_code == 201, r.text  # type: ignore[attr-defined]
    r = _submit(client, csrf, language="cobol")
    assert (
        "use one of triton, cuda, pytorch, numba, pallas, helion, mojo, fakelang"
        in r.json()["detail"]
    )  # type: ignore[attr-defined]
