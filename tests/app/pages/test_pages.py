"""HTML pages: forms with CSRF, the problem list's filters, the problem and submission pages."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app import submissions
from app.accounts import create_admin
from tests import fake_language
from tests.app.conftest import csrf_of

GPU_RESULT = {
    "verdict": "accepted",
    "problem": "toy-add",
    "language": "triton",
    "device": "NVIDIA H100 80GB HBM3",
    "message": "",
    "compile": {"ok": True, "log": "", "seconds": 1.2},
    "cases": [{"name": "n = 3", "passed": True, "message": "", "max_abs_error": 0.0}],
    "benchmark": [
        {
            "name": "n = 2^20",
            "median_ms": 0.012,
            "runs": 200,
            "iqr_ms": 0.0004,
            "rse_pct": 0.3,
            "min_ms": 0.0118,
            "max_ms": 0.013,
            "gbps": 1048.6,
            "tflops": 0.087,
            "sol_ms": 0.0042,
            "sol_pct": 35.0,
            "bound": "memory",
        }
    ],
    "phases": {"compile": 1.2, "tests": 0.4, "benchmark": 2.0},
    "stdout": "",
    "score_ms": 0.012,
}


def _form_signup(c: TestClient, name: str = "carol") -> None:
    tok = re.search(r'name="csrf_token" value="([^"]+)"', c.get("/signup").text)
    assert tok
    r = c.post(
        "/signup",
        data={
            "csrf_token": tok.group(1),
            "username": name,
            "password": "kernel-dojo-pass",
            "next": "/problems/toy-add",
        },
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"] == "/problems/toy-add"


def test_forms_need_the_csrf_token(client: TestClient) -> None:
    r = client.post("/signup", data={"username": "mallory", "password": "kernel-dojo-pass"})
    assert r.status_code == 403 and "form expired" in r.text
    _form_signup(client)
    assert client.post("/logout", data={}).status_code == 403
    r = client.post("/logout", data={"csrf_token": csrf_of(client)}, follow_redirects=False)
    assert r.status_code == 303
    assert "Log in" in client.get("/problems").text


def test_session_cookie_flags(client: TestClient) -> None:
    r = client.get("/problems")
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie


def test_signup_and_login_errors_are_shown(client: TestClient) -> None:
    tok = csrf_of(client, "/signup")
    r = client.post(
        "/signup", data={"csrf_token": tok, "username": "ab", "password": "kernel-dojo-pass"}
    )
    assert r.status_code == 422 and "username" in r.text
    r = client.post(
        "/login", data={"csrf_token": tok, "username": "ghost", "password": "whatever1"}
    )
    assert r.status_code == 401 and "Wrong username or password" in r.text


def test_problem_list_and_filters(client: TestClient) -> None:
    html = client.get("/problems").text
    assert "Toy Addition" in html and "Easy" in html
    assert "Toy Addition" not in client.get("/problems?difficulty=hard").text
    assert "Toy Addition" in client.get("/problems?tag=elementwise").text
    assert "Toy Addition" not in client.get("/problems?q=matmul").text


def test_problem_page(client: TestClient) -> None:
    html = client.get("/problems/toy-add").text
    assert (
        'class="math block"' in html and 'id="editor"' in html and "/static/dist/editor.js" in html
    )
    assert "def solve(a, b, c, n):" in html and "void solve(const float* a" in html
    r = client.get("/problems/nope")
    assert r.status_code == 404 and "no problem called" in r.text


def _page_data(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="problem-data">(.*?)</script>', html, re.S)
    assert m
    return dict(json.loads(m.group(1)))


def test_the_editor_reads_the_languages_the_page_embeds(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _page_data(client.get("/problems/toy-add").text)
    assert [(x["name"], x["menu_label"], x["editor_mode"]) for x in data["languages"]] == [
        ("triton", "Triton (Python)", "python"),
        ("cuda", "CUDA C++", "cpp"),
        ("pytorch", "PyTorch (framework track)", "python"),
        ("numba", "Numba CUDA (Python)", "python"),
        ("pallas", "JAX Pallas (Python)", "python"),
        ("helion", "Helion (Python)", "python"),
        ("mojo", "Mojo", "python"),
    ]
    assert set(data["starters"]) == {
        "triton",
        "cuda",
        "pytorch",
        "numba",
        "pallas",
        "helion",
        "mojo",
    }
    fake_language.register(monkeypatch)  # one more language in the registry: the page follows
    html = client.get("/problems/toy-add").text
    data = _page_data(html)
    assert [x["name"] for x in data["languages"]] == [
        "triton",
        "cuda",
        "pytorch",
        "numba",
        "pallas",
        "helion",
        "mojo",
        "fakelang",
    ]
    assert data["starters"]["fakelang"] == "# fake starter\n"
    assert "fake solve(a b c n)   # FakeLang" in html  # the signatures list
    assert "void solve(const float* a, const float* b, float* c, int n);   // CUDA" in html


def test_submission_page_with_gpu_timings(client: TestClient, engine: Engine) -> None:
    _form_signup(client)
    r = client.post(
        "/api/v1/submissions",
        json={"problem": "toy-add", "language": "triton", "source": "x = 1", "gpu_kind": "h100"},
        headers={"X-CSRF-Token": csrf_of(client)},
    )
    sid = r.json()["id"]
    page = client.get(f"/submissions/{sid}").text
    assert 'id="live-progress"' in page and "position 1" in page
    attempt = submissions.claim(engine, sid, "w", 60)
    assert attempt
    submissions.record(engine, sid, attempt, GPU_RESULT)
    page = client.get(f"/submissions/{sid}").text
    assert "Accepted" in page and 'id="live-progress"' not in page
    assert "12.0 µs" in page and "1048.6" in page and "35%" in page
    assert page.count("<svg") >= 3  # time per case, roofline, history
    assert "rank <b>#1</b>" in page
    assert "timed to the end of all GPU work" not in page
    assert 'data-mode="python"' in page and "· Triton ·" in page  # from the registry


def test_submission_page_says_when_the_judges_clock_timed_calls(
    client: TestClient, engine: Engine
) -> None:
    _form_signup(client, "erin")
    r = client.post(
        "/api/v1/submissions",
        json={"problem": "toy-add", "language": "triton", "source": "x = 1", "gpu_kind": "h100"},
        headers={"X-CSRF-Token": csrf_of(client)},
    )
    sid = r.json()["id"]
    attempt = submissions.claim(engine, sid, "w", 60)
    assert attempt
    bench = dict(GPU_RESULT["benchmark"][0], referee_calls=180, referee_gap_us=112.4)
    warning = "kernel add_kernel needs 786464 bytes of shared memory per block"
    submissions.record(
        engine, sid, attempt, dict(GPU_RESULT, benchmark=[bench], warnings=[warning])
    )
    page = client.get(f"/submissions/{sid}").text
    assert "by 112 µs, median" in page and "180 of 200 calls were timed by the judge" in page
    assert f"Warning: {warning}" in page


def test_leaderboards_profile_tokens_and_admin_pages(client: TestClient, engine: Engine) -> None:
    _form_signup(client, "dave")
    assert "Nobody has solved" in client.get("/leaderboard/toy-add").text
    assert client.get("/leaderboard").status_code == 200
    assert "dave" in client.get("/users/dave").text
    assert client.get("/users/nobody").status_code == 404
    r = client.post("/settings/tokens", data={"csrf_token": csrf_of(client), "name": "laptop"})
    assert "kd_" in r.text and "laptop" in r.text
    assert client.get("/admin").status_code == 403
    with Session(engine) as s:
        create_admin(s, "dave", "kernel-dojo-pass")
    html = client.get("/admin").text
    assert "Reload from problems/" in html
    r = client.post(
        "/admin/signups",
        data={"csrf_token": csrf_of(client), "invite_code": "class-a-fall-2026"},
        follow_redirects=False,
    )
    assert r.status_code == 303
    client.cookies.clear()
    assert "Sign-ups are closed" in client.get("/signup").text
