"""The Learn page in the browser: tracks in order, a visitor's starting point, a learner's
solved problems and next step, and the problem list's track filter."""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session, select

from app.core.db import make_engine
from app.models import Mode, Status, Submission, User
from tests.browser.test_learner import sign_up
from tests.conftest import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def _accept(server: LiveServer, username: str, slug: str) -> None:
    """Record an accepted, finished submission, as the worker would after grading one."""
    with Session(make_engine(server.database_url)) as s:
        uid = s.exec(select(User.id).where(User.username == username)).one()
        s.add(
            Submission(
                problem=slug,
                language="triton",
                user_id=uid,
                gpu_kind="cpu",
                source="# graded elsewhere",
                mode=Mode.SUBMIT,
                status=Status.DONE,
                verdict="accepted",
            )
        )
        s.commit()


def test_learn_page_guides_a_learner(page: Any, live_server: LiveServer, shots: Path) -> None:
    page.goto(f"{live_server.url}/learn")
    heads = page.locator(".learn-track-head h2").all_text_contents()
    assert heads[:2] == ["Foundations", "Parallel patterns"]
    assert page.locator(".learn-next .eyebrow").inner_text().strip().lower() == "start here"
    assert page.locator(".learn-next-link").inner_text() == "Vector Addition"
    first = page.locator("#track-foundations .learn-step").first
    assert first.get_attribute("data-slug") == "vector-add"
    assert "is-next" in (first.get_attribute("class") or "")
    # Prerequisites are shown by title and link to their problems.
    fa = page.locator('.learn-step[data-slug="flash-attention"] .learn-after')
    assert "Softmax" in fa.inner_text() and "Matrix" in fa.inner_text()

    name = sign_up(page, live_server)
    assert page.locator("nav a[href='/learn']").is_visible()
    _accept(live_server, name, "vector-add")
    page.click("nav a[href='/learn']")
    page.wait_for_url(re.compile(r"/learn$"))
    assert page.locator(".learn-next .eyebrow").inner_text().strip().lower() == "next up"
    assert page.locator(".learn-next-link").inner_text() == "Sum Reduction"
    assert page.locator(".learn-solved-count").inner_text() == "1"
    done = page.locator('.learn-step[data-slug="vector-add"]')
    assert done.get_attribute("data-state") == "solved" and "Solved" in done.inner_text()
    waiting = page.locator('.learn-step[data-slug="softmax"]')
    assert waiting.get_attribute("data-state") == "waiting"
    assert "solve 1 more first" in waiting.inner_text()
    page.screenshot(path=str(shots / f"learn-{uuid.uuid4().hex[:6]}.png"), full_page=True)

    # The next step opens its problem page.
    page.click(".learn-next-link")
    page.wait_for_url(re.compile(r"/problems/reduction$"))

    # The problem list filters by track; the track's link on the Learn page goes there.
    page.goto(f"{live_server.url}/learn")
    page.click("#track-parallel-patterns .learn-track-head a")
    page.wait_for_url(re.compile(r"/problems\?track=parallel-patterns$"))
    titles = page.locator("a.problem-link").all_inner_texts()
    assert "Argmax of Each Row" in titles and "Vector Addition" not in titles
    page.select_option("select[name=track]", "foundations")
    page.wait_for_url(re.compile(r"track=foundations"))
    titles = page.locator("a.problem-link").all_inner_texts()
    assert "Vector Addition" in titles and "Argmax of Each Row" not in titles
