"""The front door (issue 23, item 9): the landing page for a first-time visitor, where it
starts a learner, and the tutorial."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.pages.front import first_problem
from app.problems import ProblemRegistry
from tests.app.conftest import signup
from tests.conftest import ROOT


def test_a_visitor_gets_the_landing_page(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200
    html = r.text
    assert "How a submission is judged" in html and "The speed of light" in html
    assert 'id="start-here" href="/problems/toy-add"' in html  # the only fixture problem
    assert 'href="/learn"' in html and 'href="/tutorial"' in html
    assert "<svg" in html and "median" in html and "L2 cache flushed" in html
    # The fixture server has an h100 queue beside cpu: CUDA runs there.
    assert "<b>CUDA</b>: CUDA is tested, timed and ranked on a GPU (H100)." in html


def test_a_learner_goes_straight_to_the_problems(client: TestClient) -> None:
    signup(client)
    r = client.get("/", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/problems"
    assert "How a submission is judged" in client.get("/about").text


def test_the_tutorial(client: TestClient) -> None:
    html = client.get("/tutorial").text
    assert 'id="triton"' in html and 'id="cuda"' in html and 'id="interpreter"' in html
    assert "@triton.jit" in html and "__global__ void add_kernel" in html
    assert 'extern "C" void solve(const float* a, const float* b, float* c, int n)' in html
    assert "/static/dist/code.js" in html  # highlighted like submitted code


def test_start_here_is_the_first_problem_of_the_learning_path() -> None:
    registry = ProblemRegistry(ROOT / "problems")
    catalog = registry.reload()
    start = first_problem(catalog)
    assert start is not None and start.slug == "vector-add"
    assert start.track == "foundations" and not start.prerequisites


def test_every_page_carries_the_verdict_labels_of_the_judge(client: TestClient) -> None:
    """One definition of the labels (judge/verdicts.py): the browser reads them from
    the page, the `kerneldojo submit` client from the same module."""
    import json
    import re

    from app import submit_client, unavailable
    from judge.verdicts import Verdict

    html = client.get("/").text
    m = re.search(r'<script type="application/json" id="kd-verdict-labels">(.*?)</script>', html)
    assert m, "base.html lost the labels"
    # The judge's verdicts, and the app's own answer for a language no worker can grade.
    judged = {v.value: v.label for v in Verdict}
    assert json.loads(m.group(1)) == {**judged, unavailable.VERDICT: unavailable.LABEL}
    assert submit_client._label(unavailable.VERDICT) == unavailable.LABEL
    assert submit_client._label("time_limit_exceeded") == "Time Limit Exceeded"
    assert submit_client._label("something_new") == "something_new"
