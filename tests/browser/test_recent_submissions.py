"""The problem page's "Your submissions" follows a Run and a Submit in Chromium (#37, item 11):
it was drawn with the page and stayed as it was until a reload. Now a Run appears in it as soon
as it is queued and shows its verdict when graded; after Submit and Back, the list is fresh."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.test_learner import set_code, sign_up
from tests.conftest import LiveServer
from tests.samples import VECTOR_ADD as SOLUTION
from tests.samples import VECTOR_ADD_WRONG as WRONG

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]

ITEMS = ".your-subs li[data-sub]"


def _items(page: Any) -> list[str]:
    return [t.strip() for t in page.locator(ITEMS).all_inner_texts()]


def test_run_and_submit_show_up_in_your_submissions(page: Any, live_server: LiveServer) -> None:
    sign_up(page, live_server)
    page.goto(f"{live_server.url}/problems/vector-add")
    page.wait_for_selector(".cm-content")
    assert page.locator(ITEMS).count() == 0  # a new learner has none

    set_code(page, WRONG)
    page.click("#run-btn")
    page.wait_for_selector("#run-output .verdict-banner", timeout=180_000)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.your-subs li[data-sub]')]"
        ".some(li => li.textContent.includes('Wrong Answer'))",
        timeout=30_000,
    )
    first = _items(page)
    assert len(first) == 1 and "run" in first[0], first

    set_code(page, SOLUTION)
    page.click("#run-btn")
    # Queued: it is listed before it is graded, newest first.
    page.wait_for_function(
        "() => document.querySelectorAll('.your-subs li[data-sub]').length === 2", timeout=30_000
    )
    page.wait_for_selector("#run-output .verdict-banner", timeout=180_000)
    page.wait_for_function(
        "() => document.querySelector('.your-subs li[data-sub]').textContent.includes('Accepted')",
        timeout=30_000,
    )
    ids = [int(x) for x in page.locator(ITEMS).evaluate_all("els => els.map(e => e.dataset.sub)")]
    assert ids == sorted(ids, reverse=True)

    # The refreshed list's buttons work: diff against the wrong run.
    page.locator(f"{ITEMS} [data-diff]").nth(1).click()
    page.wait_for_selector("#diff-bar:not([hidden])")
    assert f"#{ids[1]}" in page.locator("#diff-bar .diff-label").inner_text()
    page.click("#diff-stop")

    page.click("#submit-btn")
    page.wait_for_url(re.compile(r"/submissions/\d+$"))
    page.wait_for_selector(".verdict-banner", timeout=180_000)
    page.go_back()  # from the back-forward cache too, the list is fresh
    page.wait_for_function(
        "() => document.querySelectorAll('.your-subs li[data-sub]').length === 3", timeout=30_000
    )
    assert "submit" in _items(page)[0]
