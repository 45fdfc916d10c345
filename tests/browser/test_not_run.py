"""A CUDA submission on a server without a GPU is compiled and answered not_run; its page says
so as a note, in Chromium (#37, item 11): the banner was an error's red, the device read
'cpu-interpreter' (nothing ran it), and the history chart put it on the red 'not accepted' row.
Screenshot: test-artifacts/screenshots/not-run.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_learner import sign_up
from tests.conftest import ROOT, LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CUDA = (ROOT / "problems/vector-add/solutions/accepted/cuda_simple.cu").read_text()
SUBMIT = """async (src) => {
  const csrf = document.querySelector('meta[name=csrf-token]').content;
  const r = await fetch('/api/v1/submissions', {method: 'POST',
    headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
    body: JSON.stringify({problem: 'vector-add', language: 'cuda', mode: 'submit', source: src})});
  return (await r.json()).id;
}"""


def _red(css_color: str) -> bool:
    """An rgb()/rgba() colour whose red clearly dominates its green (the error palette)."""
    r, g, *_ = (float(x) for x in css_color[css_color.index("(") + 1 : -1].split(","))
    return r > 200 and g < 150


def test_not_run_reads_as_a_note(page: Any, live_server: LiveServer, shots: Path) -> None:
    sign_up(page, live_server)
    page.goto(f"{live_server.url}/problems/vector-add")
    sid = page.evaluate(SUBMIT, CUDA)
    page.goto(f"{live_server.url}/submissions/{sid}")
    page.wait_for_selector(".verdict-banner", timeout=180_000)
    assert page.locator(".verdict-label").inner_text() == "Not Run"

    banner = page.locator(".verdict-banner")
    border = banner.evaluate("e => getComputedStyle(e).borderTopColor")
    assert not _red(border), border  # amber, a note
    facts = page.locator(".verdict-facts").inner_text()
    assert "cpu-interpreter" not in facts and "compiled only" in facts, facts

    chart = page.locator("figure:has(figcaption:text('Your submissions')) svg")
    dot = chart.locator(f"a[href='/submissions/{sid}'] circle")
    assert dot.get_attribute("fill") == "#fbbf24"  # amber, not the failures' red
    assert "not run" in chart.locator("text").all_text_contents()
    page.screenshot(path=str(shots / "not-run.png"), full_page=True)
