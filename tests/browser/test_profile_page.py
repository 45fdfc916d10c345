"""A learner's profile page in Chromium (#37, "the learner's second hour"), on a year of
recorded history: the activity heatmap (each day's cell names its date and count), solved by
difficulty and by track, languages and the best percent of speed of light; at 390 px nothing
runs off the screen. Screenshots: test-artifacts/screenshots/user-profile.png and
user-profile-phone.png (docs/screenshots/ keeps copies, looked at). Not to be confused with
test_profile.py, the Nsight Compute profile of a submission."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session, select

from app.core.db import make_engine
from app.models import Mode, Status, Submission, User
from tests.browser.test_learner import sign_up
from tests.conftest import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]
WIDTH, HEIGHT = 390, 844
TODAY = datetime.now(UTC).date()
# (problem, language, score_ms, per-case percent of speed of light): ranked H100 acceptances.
TIMED = [
    ("vector-add", "triton", 0.021, [86.0, 94.0]),
    ("vector-add", "cuda", 0.024, [80.0, 79.0]),
    ("reduction", "cuda", 0.031, [71.0, 65.0]),
    ("softmax", "triton", 0.102, [58.0, 62.0]),
    ("matmul", "triton", 0.913, [41.0, 47.0]),
    ("transpose", "cuda", 0.066, [52.0, 49.0]),
]
UNTIMED = [("gelu", "pytorch"), ("prefix-sum", "triton"), ("flash-attention", "pytorch")]


def _history(server: LiveServer, username: str) -> int:
    """A year of a learner's work, busier lately; how many submissions the heatmap shows."""
    rng = random.Random(37)
    engine = make_engine(server.database_url)
    shown = 0
    with Session(engine) as s:
        uid = s.exec(select(User.id).where(User.username == username)).one()
        assert uid is not None

        def add(days_ago: int, problem: str, language: str, **kw: Any) -> None:
            at = datetime.combine(TODAY - timedelta(days=days_ago), time(9 + days_ago % 10), UTC)
            s.add(
                Submission(
                    user_id=uid,
                    problem=problem,
                    language=language,
                    gpu_kind=kw.pop("gpu_kind", "h100"),
                    source="# recorded\n",
                    status=Status.DONE,
                    created_at=at,
                    finished_at=at,
                    **kw,
                )
            )

        for days_ago in range(330):
            if rng.random() < (0.45 if days_ago < 90 else 0.15):
                for _ in range(rng.choice([1, 1, 2, 3, 5, 8])):
                    add(days_ago, "vector-add", "triton", mode=Mode.RUN, verdict="wrong_answer")
                    shown += 1
        for i, (problem, language, ms, sol) in enumerate(TIMED):
            bench = [
                {"name": f"case {j}", "median_ms": ms, "sol_pct": p} for j, p in enumerate(sol)
            ]
            result = {"verdict": "accepted", "benchmark": bench, "score_ms": ms}
            add(3 + 20 * i, problem, language, verdict="accepted", score_ms=ms,
                result_json=json.dumps(result))  # fmt: skip
            shown += 1
        for i, (problem, language) in enumerate(UNTIMED):
            add(5 + 30 * i, problem, language, verdict="accepted", gpu_kind="cpu")
            shown += 1
        s.commit()
    engine.dispose()
    return shown


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(
        viewport={"width": WIDTH, "height": HEIGHT}, device_scale_factor=1, is_mobile=True
    )
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    yield pg
    ctx.close()


def test_a_profile_with_a_year_of_work(
    page: Any, phone: Any, live_server: LiveServer, shots: Path
) -> None:
    name = sign_up(page, live_server)
    shown = _history(live_server, name)
    page.goto(f"{live_server.url}/users/{name}")

    cells = page.locator(".heatmap .hm")
    assert cells.count() >= 365
    counts = page.evaluate(
        "[...document.querySelectorAll('.heatmap .hm')].map(c => +c.dataset.count)"
    )
    assert sum(counts) == shown
    today = page.locator(f'.heatmap [data-date="{TODAY.isoformat()}"]')
    assert today.get_attribute("title") == f"No submissions on {TODAY:%a %Y-%m-%d}"
    assert today.get_attribute("role") == "img"  # its title is its accessible name
    box = page.locator(".heatmap").bounding_box()
    assert box is not None and box["width"] > 600 and box["height"] > 60

    solved = page.locator("#solved-by").inner_text()
    assert "Foundations" in solved and "Parallel patterns" in solved
    assert "2 more with a framework only" in solved
    langs = page.locator("#languages").inner_text()
    assert "Triton" in langs and "CUDA" in langs and "PyTorch" in langs
    best = page.locator("#best-sol tbody tr")
    assert best.count() == 5  # vector-add once: its faster (Triton) acceptance
    assert "90%" in best.nth(0).inner_text()  # sqrt(86 * 94) = 89.9
    assert page.locator("#rating-history").count() == 0
    page.screenshot(path=str(shots / "user-profile.png"), full_page=True)

    phone.goto(f"{live_server.url}/users/{name}")
    assert phone.evaluate("document.documentElement.scrollWidth") <= WIDTH  # nothing runs off
    hm = phone.locator(".heatmap").bounding_box()
    assert hm is not None and hm["x"] >= 0 and hm["x"] + hm["width"] <= WIDTH
    # A phone shows the last 26 weeks, in cells big enough to see and touch, today included.
    shown_cells = phone.locator(".heatmap .hm:visible")
    assert 175 <= shown_cells.count() <= 182
    assert shown_cells.last.get_attribute("data-date") == TODAY.isoformat()
    cell = shown_cells.first.bounding_box()
    assert cell is not None and cell["width"] >= 6
    phone.screenshot(path=str(shots / "user-profile-phone.png"), full_page=True)
