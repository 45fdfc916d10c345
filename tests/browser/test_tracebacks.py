"""A runtime error's traceback in Chromium (#37, item 5): it keeps its line breaks in a monospace
block in the editor's result panel and on the submission page (it was one line in a
proportional font), and the gutter marks the kernel's line that the interpreter names, not the
launch line in ``solve``. Screenshot: test-artifacts/screenshots/runtime-error-traceback.png
(docs/screenshots/ keeps a copy, looked at)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_learner import set_code, sign_up
from tests.conftest import LiveServer
from tests.judge.test_tracebacks import KERNEL

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

KERNEL_LINE = 12  # tl.store(...) in KERNEL; solve's launch is line 16


def _lines(text: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines() if ln.strip()]


def test_a_runtime_errors_traceback_keeps_its_lines_and_marks_the_kernel_line(
    page: Any, live_server: LiveServer, shots: Path
) -> None:
    sign_up(page, live_server)
    page.goto(f"{live_server.url}/problems/vector-add")
    page.wait_for_selector(".cm-content")
    set_code(page, KERNEL.format(value="a + b"))
    page.click("#run-btn")
    page.wait_for_selector("#run-output .verdict-banner", timeout=180_000)
    assert page.locator("#run-output .verdict-label").inner_text() == "Runtime Error"

    trace = page.locator("#run-output pre.verdict-trace")
    assert trace.count() == 1
    lines = _lines(trace.inner_text())
    assert lines[:5] == [
        "Traceback (in your code):",
        "line 16, in solve",
        "add_kernel[(triton.cdiv(n, 1024),)](a, b, c, n, BLOCK=1024)",
        "line 12, in add_kernel",
        "tl.store(c_ptr + offs, a + b, mask=mask)",
    ], lines
    assert "monospace" in trace.evaluate("e => getComputedStyle(e).fontFamily")

    # One mark in the gutter, on the kernel's line.
    page.locator(".cm-gutter-lint .cm-lint-marker-error").wait_for()
    assert page.locator(".cm-gutter-lint .cm-lint-marker-error").count() == 1
    marked = page.locator(".cm-line").nth(KERNEL_LINE - 1)
    assert marked.locator(".cm-lintRange-error").count() == 1
    assert "tl.store" in marked.inner_text()
    page.locator(".cm-line").nth(KERNEL_LINE - 1).scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "runtime-error-traceback.png"))

    # The submission page shows the same block.
    page.click("#run-output a")
    page.wait_for_selector(".verdict-banner")
    on_page = page.locator("pre.verdict-trace")
    assert on_page.count() == 1
    assert _lines(on_page.inner_text())[:5] == lines[:5]
    assert "monospace" in on_page.evaluate("e => getComputedStyle(e).fontFamily")
