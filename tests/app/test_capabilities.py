"""What a newcomer is told (issue 23, items 2, 3, 5, 6): what this server runs per language,
not_run kept out of acceptance rates, GPU-only test cases named, charts labelled for their
viewer, the API docs served from the install, statements free of repository paths."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app import capabilities, charts, stats, submissions
from app.core.headers import CSP
from judge.problem.loader import load_all
from tests.app.conftest import csrf_of, signup
from tests.app.pages.test_pages import _page_data
from tests.conftest import ROOT


def submit(c: TestClient, language: str = "triton", gpu_kind: str = "cpu") -> int:
    body = {"problem": "toy-add", "language": language, "source": "x = 1", "gpu_kind": gpu_kind}
    r = c.post("/api/v1/submissions", json=body, headers={"X-CSRF-Token": csrf_of(c)})
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def finish(engine: Engine, sid: int, verdict: str, **extra: Any) -> None:
    attempt = submissions.claim(engine, sid, "w", 60)
    assert attempt
    result = {"verdict": verdict, "cases": [], "benchmark": [], "device": "cpu-interpreter"}
    submissions.record(engine, sid, attempt, {**result, **extra})


def test_support_and_notes() -> None:
    assert capabilities.support("triton", "cpu") == "interpreter"
    assert capabilities.support("cuda", "cpu") == "compile_only"
    assert capabilities.support("cuda", "h100") == "gpu"
    assert "not run" in capabilities.note("cuda", "cpu")
    assert "no timing" in capabilities.note("triton", "cpu")
    assert "H100" in capabilities.note("cuda", "h100")


def test_the_editor_is_told_what_each_language_gets(client: TestClient) -> None:
    data = _page_data(client.get("/problems/toy-add").text)
    assert data["support"]["cpu"]["cuda"]["support"] == "compile_only"
    assert data["support"]["cpu"]["triton"]["support"] == "interpreter"
    assert data["support"]["h100"]["cuda"]["support"] == "gpu"
    assert data["gpuOnly"] == [] and data["testCount"] == 1


def test_not_run_counts_for_no_rate(client: TestClient, engine: Engine) -> None:
    signup(client)
    finish(engine, submit(client, "cuda"), "not_run")
    with Session(engine) as s:
        assert stats.acceptance(s).get("toy-add", (0, 0)) == (0, 0)
    finish(engine, submit(client), "accepted")
    finish(engine, submit(client), "wrong_answer")
    with Session(engine) as s:
        assert stats.acceptance(s)["toy-add"] == (1, 2)
    assert "50% accepted of 2" in client.get("/problems/toy-add").text


def test_a_cuda_submission_on_the_cpu_says_it_was_not_run(
    client: TestClient, engine: Engine
) -> None:
    signup(client)
    sid = submit(client, "cuda")
    finish(engine, sid, "not_run", message="compiled; no GPU on this worker to run CUDA")
    page = client.get(f"/submissions/{sid}").text
    assert "This server has no GPU: CUDA code is compiled" in page
    assert "Compiled only" in page and "Triton's interpreter" not in page


def test_gpu_only_cases_are_named() -> None:
    va = next(p for p in load_all(ROOT / "problems").problems if p.slug == "vector-add")
    cases = [{"name": t.name, "passed": True} for t in va.tests if t.interpreter]
    cov = capabilities.coverage(va, "cpu", {"cases": cases})
    assert cov is not None and cov.run == len(cases) and cov.total == len(va.tests)
    assert cov.summary() == (
        f"{len(cases)} of {len(va.tests)} tests run on the CPU interpreter; "
        f"{len(cov.gpu_only)} run only on a GPU"
    )
    assert "n = 2^25 - 1" in cov.gpu_only
    assert capabilities.coverage(va, "h100", {"cases": cases}) is None  # all run on a GPU
    assert capabilities.coverage(va, "cpu", {"cases": []}) is None  # nothing ran at all


def test_someone_elses_history_is_titled_as_theirs(client: TestClient, engine: Engine) -> None:
    signup(client, "alice")
    sid = submit(client)
    finish(engine, sid, "wrong_answer")
    assert "Your submissions on this problem" in client.get(f"/submissions/{sid}").text
    other = TestClient(client.app)
    signup(other, "bob")
    page = other.get(f"/submissions/{sid}").text
    assert "alice’s submissions on this problem" in page
    assert "Your submissions" not in page


def test_a_passing_case_shows_no_raw_error(client: TestClient, engine: Engine) -> None:
    signup(client)
    sid = submit(client)
    case = {"name": "n = 3", "passed": True, "message": "", "max_abs_error": 4.4e12}
    finish(engine, sid, "accepted", cases=[case])
    page = client.get(f"/submissions/{sid}").text
    assert "within tolerance" in page and "4.40e+12" not in page
    # With the checker's ratio (#23: the error relative to the tolerance), that is shown.
    sid = submit(client)
    finish(engine, sid, "accepted", cases=[{**case, "tol_ratio": 0.3125}])
    page = client.get(f"/submissions/{sid}").text
    assert "0.31 × tolerance" in page and "4.40e+12" not in page


def test_the_grading_time_legend_wraps_inside_the_chart() -> None:
    phases = {
        "sandbox_start": 1.25,
        "compile": 0.5,
        "precompile": 2.0,
        "tests": 9.75,
        "settle": 0.5,
        "calibrate": 3.0,
        "benchmark": 30.0,
    }
    svg = str(charts.phases_chart(phases))
    width = int(re.search(r'viewBox="0 0 (\d+) (\d+)"', svg).group(1))  # type: ignore[union-attr]
    labels = re.findall(
        r'<text x="(\d+)" y="(\d+)" fill="#8b95a7" font-size="11">([^<]+)</text>', svg
    )
    assert len(labels) == len(phases)
    assert len({y for _, y, _ in labels}) > 1  # more than one row
    for x, _, text in labels:
        assert int(x) + 6.5 * len(text) <= width, text  # within the chart, at ~6.5 px a char
    assert "benchmark 30.00 s" in {t for *_, t in labels}


def test_api_docs_come_from_the_install(client: TestClient) -> None:
    r = client.get("/api/v1/docs")
    assert r.status_code == 200
    assert r.headers["content-security-policy"] == CSP  # no CDN, no inline script
    assert '<script src="/static/dist/swagger/swagger-ui-bundle.js">' in r.text
    assert 'href="/static/dist/swagger/swagger-ui.css"' in r.text
    assert "cdn" not in r.text.lower() and 'data-openapi="/api/v1/openapi.json"' in r.text
    for tag in re.findall(r"<script[^>]*>", r.text):
        assert "src=" in tag or 'type="application/json"' in tag, tag


def test_statements_show_no_repository_paths() -> None:
    bad = re.compile(r"`(?:docs|benchmarks|scripts|tests|worker|app)/[^`]*`")
    for statement in sorted((ROOT / "problems").glob("*/statement.md")):
        found = bad.findall(statement.read_text())
        assert not found, (
            f"{statement.relative_to(ROOT)} shows learners {found}: a learner cannot open a"
            " repository path; link a page of the site (the interpreter: /tutorial#interpreter)"
        )
