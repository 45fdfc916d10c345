"""A newcomer's first hour in the browser (issue 23): the landing page and tutorial, the API
docs without internet, what a server without a GPU says before and after Submit, skipped
cases and honest labels on the result, and the editor's conveniences (error lines in the
gutter, recent submissions in view, open and diff a past submission, drafts on the server,
search as you type). Screenshots go to test-artifacts/screenshots/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_learner import set_code, sign_up
from tests.conftest import LiveServer
from tests.samples import VECTOR_ADD as SOLUTION

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

SYNTAX_ERROR = "import triton\n\n\ndef solve(a, b, c, n)\n    pass\n"


def log_in(page: Any, server: LiveServer, name: str) -> None:
    page.goto(f"{server.url}/login")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", "correct-horse-battery")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/problems$"))


def editor_text(page: Any) -> str:
    return str(page.evaluate("window.kerneldojoEditor.state.doc.toString()"))


def test_landing_page_and_tutorial(page: Any, live_server: LiveServer, shots: Path) -> None:
    page.goto(f"{live_server.url}/")
    assert page.locator("h1").inner_text().startswith("Write the kernel.")
    assert page.locator("svg.diagram").count() == 2  # how it is judged; the speed of light
    assert page.locator("a[href='/learn']").count() >= 1  # the learning path
    start = page.locator("#start-here")
    assert start.get_attribute("href") == "/problems/vector-add"
    page.screenshot(path=str(shots / "landing.png"), full_page=True)
    learn = page.request.get(f"{live_server.url}/learn")  # the learning path it points to
    assert learn.status == 200 and "vector-add" in learn.text()
    start.click()
    page.wait_for_url(re.compile(r"/problems/vector-add$"))
    page.wait_for_selector(".cm-content")
    page.goto(f"{live_server.url}/tutorial")
    page.wait_for_selector("pre.code .tok-keyword")  # highlighted, like submitted code
    assert page.locator("#interpreter").count() == 1
    page.screenshot(path=str(shots / "tutorial.png"), full_page=True)


def test_api_docs_load_without_internet(page: Any, live_server: LiveServer) -> None:
    outside: list[str] = []
    errors: list[str] = []

    def only_this_server(route: Any) -> None:
        if route.request.url.startswith(live_server.url):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_this_server)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{live_server.url}/api/v1/docs")
    page.wait_for_selector(".swagger-ui .opblock")
    assert page.locator(".swagger-ui .opblock").count() > 10
    assert page.locator(".opblock-summary-path:has-text('/api/v1/submissions')").count() >= 1
    assert outside == [] and errors == []


def test_a_server_without_a_gpu_says_what_cuda_gets(
    page: Any, live_server: LiveServer, shots: Path
) -> None:
    sign_up(page, live_server)
    page.goto(f"{live_server.url}/problems/vector-add")
    page.wait_for_selector(".cm-content")
    note = page.locator("#run-note")
    assert "tested on the CPU" in note.inner_text() and note.is_visible()
    page.select_option("#language", "cuda")
    assert "only compiled here, not run" in note.inner_text()
    assert "compile only here" in page.locator("#language option[value=cuda]").inner_text()
    page.screenshot(path=str(shots / "cuda-on-cpu-note.png"))
    page.click("#submit-btn")  # the CUDA starter: compiled, not run
    page.wait_for_url(re.compile(r"/submissions/\d+$"))
    page.wait_for_selector(".verdict-banner", timeout=120_000)
    assert page.locator(".verdict-label").inner_text() == "Not Run"
    body = page.locator("main").inner_text()
    assert "This server has no GPU: CUDA code is compiled" in body
    assert "Triton's interpreter" not in body


def test_result_page_shows_skipped_cases_and_honest_labels(
    page: Any, browser: Any, live_server: LiveServer, shots: Path
) -> None:
    sign_up(page, live_server)
    page.goto(f"{live_server.url}/problems/vector-add")
    page.wait_for_selector(".cm-content")
    statement = page.locator(".markdown").inner_text()
    assert "docs/triton.md" not in statement and "benchmarks/" not in statement
    set_code(page, SOLUTION)
    page.click("#submit-btn")
    page.wait_for_url(re.compile(r"/submissions/\d+$"))
    page.wait_for_selector(".verdict-banner", timeout=120_000)
    assert page.locator(".verdict-label").inner_text() == "Accepted"
    fact = page.locator(".verdict-banner .coverage-fact").inner_text()
    assert fact == "10 of 13 tests run on the CPU interpreter; 3 run only on a GPU"
    skipped = page.locator(".case.skipped .case-name").all_inner_texts()
    assert skipped == ["n = 2^22 + 3, wide range of magnitudes", "n = 2^25 - 1", "n = 2^25 + 7"]
    assert page.locator(".case.pass").count() == 10
    assert "max err" not in page.locator("main").inner_text()
    assert (
        page.locator(".case.pass:has-text('× tolerance')").count() == 10
    )  # e.g. "0.31 × tolerance"
    # The grading-time legend: every label inside the chart's box.
    overflow = page.evaluate(
        """() => {
          const svg = [...document.querySelectorAll('figure svg.chart')]
            .find(s => s.getAttribute('aria-label').startsWith('grading took'));
          const width = svg.viewBox.baseVal.width;
          return [...svg.querySelectorAll('text')]
            .filter(t => t.getBBox().x + t.getBBox().width > width + 0.5)
            .map(t => t.textContent);
        }"""
    )
    assert overflow == []
    assert page.locator("figcaption:has-text('Your submissions on this problem')").count() == 1
    page.screenshot(path=str(shots / "submission-skipped-cases.png"), full_page=True)
    owner = page.locator(".user-chip").inner_text().strip()[1:].strip()
    url = page.url

    other = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        them = other.new_page()
        sign_up(them, live_server)
        them.goto(url)
        them.wait_for_selector(".verdict-banner")
        caption = f"{owner}’s submissions on this problem"
        assert them.locator(f"figcaption:has-text('{caption}')").count() == 1
        assert them.locator("figcaption:has-text('Your submissions')").count() == 0
    finally:
        other.close()


def test_starter_lines_wrap_inside_the_editor(page: Any, live_server: LiveServer) -> None:
    page.set_viewport_size({"width": 1100, "height": 800})
    page.goto(f"{live_server.url}/problems/flash-attention")
    page.select_option("#language", "cuda")
    page.wait_for_function("document.querySelector('.cm-content').innerText.includes('extern')")
    widths = page.evaluate(
        "(() => { const s = document.querySelector('.cm-scroller');"
        " return [s.scrollWidth, s.clientWidth]; })()"
    )
    assert widths[0] <= widths[1] + 1, widths  # no line runs past the editor's width


def test_editor_conveniences(page: Any, browser: Any, live_server: LiveServer, shots: Path) -> None:
    name = sign_up(page, live_server)
    page.goto(f"{live_server.url}/problems/vector-add")
    page.wait_for_selector(".cm-content")

    # A syntax error: marked at its line in the gutter.
    set_code(page, SYNTAX_ERROR)
    page.click("#run-btn")
    page.wait_for_selector("#run-output .verdict-banner", timeout=120_000)
    assert page.locator("#run-output .verdict-label").inner_text() == "Compile Error"
    marker = page.locator(".cm-gutter-lint .cm-lint-marker-error")
    marker.wait_for()
    assert marker.count() == 1
    line4 = page.locator(".cm-line").nth(3)
    assert line4.locator(".cm-lintRange-error").count() == 1  # line 4: def solve(...) without ':'
    page.screenshot(path=str(shots / "problem-gutter-error.png"))
    run_id = int(
        re.search(r"#(\d+)", page.locator("#run-output a").inner_text()).group(1)  # type: ignore[union-attr]
    )

    # The recent submissions, in view without scrolling.
    page.reload()
    page.wait_for_selector(".cm-content")
    box = page.locator(".your-subs").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 900
    assert page.locator(f".your-subs li[data-sub='{run_id}']").count() == 1

    # Diff against that run, then stop.
    set_code(page, SOLUTION)
    page.click(f"[data-diff='{run_id}']")
    page.wait_for_selector("#diff-bar:not([hidden])")
    page.wait_for_function("() => document.querySelectorAll('.cm-changedLine').length > 0")
    assert page.locator(".cm-deletedChunk .cm-deletedLine").count() >= 1  # the run's lines
    assert f"#{run_id}" in page.locator("#diff-bar").inner_text()
    page.screenshot(path=str(shots / "problem-diff.png"))
    page.click("#diff-stop")
    assert (
        page.locator(".cm-deletedChunk").count() == 0
        and page.locator(".cm-changedLine").count() == 0
    )

    # The draft is on the server: another browser (no local storage) starts from it.
    page.evaluate(
        "window.kerneldojoDrafts.save('triton', window.kerneldojoEditor.state.doc.toString())"
    )
    page.evaluate("window.kerneldojoDrafts.sync()")
    other = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        second = other.new_page()
        log_in(second, live_server, name)
        second.goto(f"{live_server.url}/problems/vector-add")
        second.wait_for_selector(".cm-content")
        assert "BLOCK=1024" in editor_text(second)
    finally:
        other.close()

    # Open the run from its page: its code in the editor over the draft, Undo brings it back.
    page.goto(f"{live_server.url}/submissions/{run_id}")
    page.click("#open-in-editor")
    page.wait_for_url(re.compile(rf"/problems/vector-add\?from={run_id}$"))
    page.wait_for_selector(".cm-content")
    assert editor_text(page) == SYNTAX_ERROR
    assert f"Submission #{run_id}" in page.locator("#run-output .alert-info").inner_text()
    page.locator(".cm-gutter-lint .cm-lint-marker-error").wait_for()
    page.click(".cm-content")
    page.keyboard.press("Control+z")
    assert "BLOCK=1024" in editor_text(page)


def test_search_applies_as_you_type(page: Any, live_server: LiveServer) -> None:
    page.goto(f"{live_server.url}/problems")
    page.evaluate("window.__samePage = 'yes'")
    total = page.locator(".problems-table tbody tr").count()
    page.fill("input.search", "")
    page.type("input.search", "matm", delay=40)
    rows = "n => document.querySelectorAll('.problems-table tbody tr').length === n"
    page.wait_for_function(rows, arg=1)
    assert page.locator(".problems-table tbody tr").get_attribute("data-slug") == "matmul"
    assert page.evaluate("window.__samePage") == "yes"  # no page load: the box keeps its focus
    assert page.evaluate("document.activeElement.name") == "q"
    assert page.url.endswith("/problems?q=matm")
    page.fill("input.search", "")
    page.wait_for_function(rows, arg=total)
    assert total > 1  # every problem again
