"""The playground in Chromium (issue 37): from the problem page's Playground link, the learner's
draft runs on sizes and a seed they choose, on the CPU under the interpreter; the outputs are
shown beside the reference's (mismatches marked) with the kernel's printed lines, and nothing
becomes a submission. The screenshot is docs/screenshots/playground.png (looked at)."""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import LiveServer
from tests.samples import VECTOR_ADD

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PRINTS = VECTOR_ADD.replace(
    "def solve(a, b, c, n):\n",
    'def solve(a, b, c, n):\n    print(f"solve called with n = {n}, blocks = {triton.cdiv(n, 1024)}")\n',
)
WRONG = VECTOR_ADD.replace("a + b, mask=mask", "a - b, mask=mask")


def test_custom_sizes_outputs_against_the_reference_and_a_print(
    page: Any, live_server: LiveServer, shots: Path
) -> None:
    name = f"play{uuid.uuid4().hex[:6]}"
    page.goto(f"{live_server.url}/signup")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", "correct-horse-battery")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/problems$"))

    page.goto(f"{live_server.url}/problems/vector-add")
    page.locator(".pane-head .meta").screenshot(path=str(shots / "playground-link.png"))
    page.click("#playground-link")
    page.wait_for_url(re.compile(r"/problems/vector-add/playground$"))
    page.select_option("#pg-language", "triton")
    page.fill("#pg-source", PRINTS)
    page.fill("input[data-param=n]", "37")
    page.fill("#pg-seed", "3")
    page.click("#pg-run")
    page.wait_for_selector("#pg-result:not([hidden]) .pg-table", timeout=120_000)

    text = page.inner_text("#pg-result")
    assert "Matches the reference" in text and "n = 37, seed 3" in text
    assert page.locator(".pg-table tbody tr").count() == 37
    assert page.locator(".pg-table tr.pg-bad").count() == 0
    yours = page.locator(".pg-table tbody tr >> nth=5 >> td >> nth=1").inner_text()
    ref = page.locator(".pg-table tbody tr >> nth=5 >> td >> nth=2").inner_text()
    assert float(yours) == pytest.approx(float(ref), rel=1e-5)
    assert "solve called with n = 37, blocks = 1" in page.inner_text("#pg-stdout")
    page.screenshot(path=str(shots / "playground.png"), full_page=True)

    # A wrong kernel on typed inputs: every value differs, each marked, the checker's message.
    page.fill("#pg-source", WRONG)
    page.fill("input[data-param=n]", "3")
    page.click(".pg-literals summary")
    page.fill("#pg-literals", '{"a": [1, 2, 3], "b": [10, 20, 30]}')
    page.click("#pg-run")
    page.wait_for_selector(".pg-table tr.pg-bad", timeout=120_000)  # the page's CSP: no eval
    assert page.locator(".pg-table tbody tr").count() == 3
    assert page.locator(".pg-table tr.pg-bad").count() == 3
    assert "-9" in page.locator(".pg-table tbody tr >> nth=0").inner_text()
    assert "11" in page.locator(".pg-table tbody tr >> nth=0").inner_text()
    assert "Wrong" in page.inner_text(".pg-verdict")
    page.screenshot(path=str(shots / "playground-mismatch.png"), full_page=True)

    # Neither run is a submission.
    assert page.evaluate("fetch('/api/v1/submissions').then(r => r.json())") == []
