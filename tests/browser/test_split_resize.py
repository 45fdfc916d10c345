"""The problem page's statement | editor split in Chromium (#37, item 11): it could not be
resized, and wide code blocks were cut off at the statement's edge. Now a divider between the
panes is dragged, or moved with the keyboard, and the width is remembered; wide code and
equations scroll sideways inside the statement, at 1400 px and on a 390 px phone.
Screenshots: test-artifacts/screenshots/split-resize*.png (docs/screenshots/ keeps copies)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

# Every block in the statement that is wider than the box it sits in: [what, box width, content
# width, overflow-x, the block's right edge, the pane's right edge].
WIDE_BLOCKS = """() => {
  const pane = document.querySelector('.statement-pane');
  const right = Math.min(pane.getBoundingClientRect().right, document.documentElement.clientWidth);
  return [...pane.querySelectorAll('.markdown pre, .markdown .math.block, .markdown table, .signature')]
    .filter(e => e.getClientRects().length && e.scrollWidth > e.clientWidth + 1)
    .map(e => [e.tagName + '.' + e.className, e.clientWidth, e.scrollWidth,
               getComputedStyle(e).overflowX, e.getBoundingClientRect().right, right]);
}"""


def _open(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(".cm-content")
    page.wait_for_function(
        "[...document.querySelectorAll('.markdown .math')].every(e => e.querySelector('.katex'))"
    )


def _statement_width(page: Any) -> float:
    return float(page.locator(".statement-pane").bounding_box()["width"])


def _assert_wide_blocks_scroll(page: Any) -> list[Any]:
    wide = page.evaluate(WIDE_BLOCKS)
    for what, client, content, overflow, right, pane_right in wide:
        assert overflow in ("auto", "scroll"), (what, client, content, overflow)
        assert right <= pane_right + 1, (what, right, pane_right)  # inside the pane, not cut
    pane = page.evaluate(
        "(() => { const p = document.querySelector('.statement-pane');"
        " return [p.scrollWidth, p.clientWidth]; })()"
    )
    assert pane[0] <= pane[1] + 1, pane  # the pane itself never needs a sideways scroll
    # A list item must not scroll itself: that would clip its bullet, which sits outside it.
    clipped = page.evaluate(
        "[...document.querySelectorAll('.statement-pane .markdown li')]"
        ".filter(li => getComputedStyle(li).overflowX !== 'visible').length"
    )
    assert clipped == 0
    return list(wide)


def test_the_split_is_dragged_moved_by_keys_and_remembered(
    browser: Any, live_server: LiveServer, shots: Path
) -> None:
    ctx = browser.new_context(viewport={"width": 1400, "height": 900}, device_scale_factor=1)
    page = ctx.new_page()
    try:
        _open(page, f"{live_server.url}/problems/flash-attention")
        wide = _assert_wide_blocks_scroll(page)
        assert any(w[0].startswith("PRE") for w in wide), "flash-attention has a wide code line"

        divider = page.locator(".split-divider")
        assert divider.get_attribute("role") == "separator"
        assert divider.get_attribute("aria-valuenow") == "44"
        before = _statement_width(page)
        assert abs(before - 0.44 * 1400) < 12, before

        box = divider.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + 200
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + 150, y, steps=6)
        page.mouse.move(x + 300, y, steps=6)
        page.mouse.up()
        dragged = _statement_width(page)
        assert abs(dragged - (before + 300)) < 15, (before, dragged)
        assert int(divider.get_attribute("aria-valuenow")) == round(100 * (x + 300) / 1400)
        assert page.evaluate("localStorage.getItem('kd.split')") is not None
        # The editor follows: CodeMirror fills the narrower pane.
        editor = page.locator(".editor-pane").bounding_box()
        assert abs(editor["x"] + editor["width"] - 1400) < 2 and editor["width"] > 360
        page.screenshot(path=str(shots / "split-resize.png"))

        page.reload()
        page.wait_for_selector(".cm-content")
        assert abs(_statement_width(page) - dragged) < 3  # remembered

        divider.focus()
        page.keyboard.press("Home")
        assert divider.get_attribute("aria-valuenow") == "20"
        assert abs(_statement_width(page) - 0.20 * 1400) < 60  # its minimum width may hold it
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Shift+ArrowRight")
        assert divider.get_attribute("aria-valuenow") == "32"
        assert abs(_statement_width(page) - 0.32 * 1400) < 12
        _assert_wide_blocks_scroll(page)  # narrow, the code still scrolls inside it
        page.screenshot(path=str(shots / "split-resize-narrow.png"))
        page.keyboard.press("End")
        assert divider.get_attribute("aria-valuenow") == "80"
        # At its widest the statement leaves the editor its 360 px, Run and Submit in view.
        assert page.evaluate("document.documentElement.scrollWidth") <= 1400
        for button in ("#run-btn", "#submit-btn"):
            b = page.locator(button).bounding_box()
            assert b and b["x"] + b["width"] <= 1400, (button, b)
        page.screenshot(path=str(shots / "split-resize-wide.png"))
        page.keyboard.press("Enter")  # back to the default
        assert divider.get_attribute("aria-valuenow") == "44"
        assert page.evaluate("localStorage.getItem('kd.split')") == "44"
    finally:
        ctx.close()


@pytest.mark.parametrize("slug", ["flash-attention", "decode-attention", "matmul"])
def test_code_and_equations_scroll_on_a_phone(
    browser: Any, live_server: LiveServer, shots: Path, slug: str
) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = ctx.new_page()
    try:
        _open(page, f"{live_server.url}/problems/{slug}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert not page.locator(".split-divider").is_visible()  # the panes stack
        wide = _assert_wide_blocks_scroll(page)
        assert wide, f"{slug}'s statement has something wider than a phone"
        if slug == "decode-attention":
            page.screenshot(path=str(shots / "split-resize-phone.png"), full_page=False)
    finally:
        ctx.close()
