"""The leaderboard's problem picker in Chromium (#37, item 11): it was a wall of 31 buttons
(Overall and one per problem). Now: Overall and one closed picker whose panel groups the
problems by track, filters as one types and is worked from the keyboard; without script it
still opens and its links work. Screenshots: test-artifacts/screenshots/leaderboard-picker*.png
(docs/screenshots/ keeps copies, looked at)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

BOARD_LINKS = "a[href^='/leaderboard/']"  # a link to one problem's board


def _visible(page: Any, selector: str) -> list[str]:
    loc = page.locator(selector)
    return [loc.nth(i).inner_text() for i in range(loc.count()) if loc.nth(i).is_visible()]


def _titles(page: Any) -> list[str]:
    """The titles of the problems the picker shows, in order."""
    return [s.split("\n")[0] for s in _visible(page, BOARD_LINKS)]


def test_the_picker_is_closed_grouped_and_filtered_from_the_keyboard(
    page: Any, live_server: LiveServer, shots: Path
) -> None:
    page.goto(f"{live_server.url}/leaderboard")
    assert _visible(page, BOARD_LINKS) == []  # no wall: every problem's link is folded away
    n = page.locator(BOARD_LINKS).count()
    assert n >= 30
    summary = page.locator(".picker summary")
    assert f"Choose one of {n}" in summary.inner_text()

    summary.focus()
    page.keyboard.press("Enter")  # opens; the focus goes to the filter box
    search = page.locator(".picker-search")
    page.wait_for_function("() => document.activeElement.classList.contains('picker-search')")
    heads = _visible(page, ".picker-heading")
    assert [h.lower() for h in heads[:3]] == ["foundations", "parallel patterns", "llm kernels"]
    assert len(_visible(page, BOARD_LINKS)) == n
    page.screenshot(path=str(shots / "leaderboard-picker.png"))

    page.keyboard.type("softmax")
    softmax = _titles(page)
    assert {"Softmax", "Causal Softmax", "Flash Attention (forward)"} <= set(softmax), softmax
    assert "Vector Addition" not in softmax
    page.keyboard.type(" medium")  # words narrow it further: the difficulty too
    medium = _titles(page)
    assert {"Softmax", "Causal Softmax"} <= set(medium)
    assert "Flash Attention (forward)" not in medium
    page.screenshot(path=str(shots / "leaderboard-picker-filtered.png"))
    search.fill("no such kernel")
    assert _visible(page, BOARD_LINKS) == [] and page.locator(".picker-empty").is_visible()

    search.fill("softmax medium")
    medium = _titles(page)
    search.focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")  # the second match
    assert page.evaluate("document.activeElement.textContent").startswith(medium[1])
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")  # above the first match: back in the box
    assert page.evaluate("document.activeElement.classList.contains('picker-search')")
    page.keyboard.press("Escape")  # closes, the focus back on the summary
    assert not page.locator(".picker-panel").is_visible()
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY"

    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.classList.contains('picker-search')")
    page.keyboard.type("reduc")
    page.keyboard.press("Enter")  # the first match opens
    page.wait_for_url(lambda url: url.endswith("/leaderboard/reduction?gpu=cpu"))
    assert page.locator(".picker summary b").inner_text() == "Sum Reduction"
    assert page.locator(".picker-panel a[aria-current=page]").get_attribute("href") == (
        "/leaderboard/reduction?gpu=cpu"
    )


def test_the_picker_at_phone_width(browser: Any, live_server: LiveServer, shots: Path) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = ctx.new_page()
    try:
        page.goto(f"{live_server.url}/leaderboard/softmax")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.locator(".picker summary").click()
        box = page.locator(".picker-panel").bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        page.screenshot(path=str(shots / "leaderboard-picker-phone.png"))
    finally:
        ctx.close()


def test_without_script_the_picker_still_opens_and_links(
    browser: Any, live_server: LiveServer
) -> None:
    ctx = browser.new_context(java_script_enabled=False)
    page = ctx.new_page()
    try:
        page.goto(f"{live_server.url}/leaderboard")
        assert _visible(page, BOARD_LINKS) == []
        page.locator(".picker summary").click()
        assert len(_visible(page, BOARD_LINKS)) == page.locator(BOARD_LINKS).count() >= 30
        page.locator(".picker-panel a", has_text="Matrix Multiplication").first.click()
        page.wait_for_url(lambda url: url.endswith("/leaderboard/matmul?gpu=cpu"))
    finally:
        ctx.close()
