"""A server whose worker cannot run Numba (#41), in Chromium: ``kerneldojo serve`` with a numba
whose import raises inside the library; the worker's self-test marks Numba unavailable, the
editor's menu shows it disabled with the reason, a Run in it is answered "Not Available" (not a
red runtime error), and the admin page shows the worker's environment and each language's
status. Screenshots go to test-artifacts/screenshots/ (docs/screenshots/ keeps copies, looked at,
of editor-language-unavailable.png, run-language-unavailable.png and admin-workers.png)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session, select

from app.accounts import create_admin
from app.core.db import make_engine
from app.models import WorkerReport
from tests.broken_env import ERROR, broken_package
from tests.browser.test_learner import sign_up
from tests.conftest import LiveServer, serving

pytestmark = [pytest.mark.browser, pytest.mark.timeout(420)]

NOT_AVAILABLE = "Numba is not available on this server's GPU workers right now"


@pytest.fixture(scope="module")
def broken_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    site = broken_package(tmp_path_factory.mktemp("env"))
    data = tmp_path_factory.mktemp("serve-broken")
    # Numba (broken here) and CUDA (compiled only on the CPU: quick) are tested; the others are
    # not, and count as available.
    with serving(data, PYTHONPATH=str(site), KERNELDOJO_SELF_TEST="numba,cuda") as server:
        engine = make_engine(server.database_url)
        deadline = time.monotonic() + 240
        while True:  # the worker's self-test has run
            with Session(engine) as s:
                rows = s.exec(select(WorkerReport)).all()
                if rows and all(r.checked_at is not None for r in rows):
                    break
            assert time.monotonic() < deadline, server.log.read_text()[-4000:]
            time.sleep(0.5)
        with Session(engine) as s:
            create_admin(s, "teacher", "teacher-pass-41")
        engine.dispose()
        yield server


def test_the_editor_disables_a_language_the_workers_cannot_grade(
    page: Any, broken_server: LiveServer, shots: Path
) -> None:
    sign_up(page, broken_server)
    page.goto(f"{broken_server.url}/problems/vector-add")
    page.wait_for_selector(".cm-content")
    numba = page.locator("#language option[value=numba]")
    assert numba.is_disabled()
    assert numba.inner_text().endswith("— not available now")
    title = numba.get_attribute("title")
    assert title.startswith(NOT_AVAILABLE) and ERROR in title and "numba/_core.py" in title
    assert "site-packages" not in title
    assert not page.locator("#language option[value=triton]").is_disabled()
    assert not page.locator("#language option[value=cuda]").is_disabled()
    note = page.locator("#lang-note")
    assert note.is_visible() and note.inner_text().startswith(NOT_AVAILABLE)
    page.screenshot(path=str(shots / "editor-language-unavailable.png"))

    # A learner who had chosen Numba before: it stays selected, says why, and a Run is answered
    # "Not Available" (counting for nothing), not a runtime error.
    page.evaluate("localStorage.setItem('kerneldojo:lang:vector-add', 'numba')")
    page.reload()
    page.wait_for_selector(".cm-content")
    assert page.input_value("#language") == "numba"
    run_note = page.locator("#run-note")
    assert run_note.is_visible() and run_note.inner_text().startswith(NOT_AVAILABLE)
    page.click("#run-btn")
    banner = page.wait_for_selector("#run-output .verdict-banner.verdict-unavailable")
    assert banner.inner_text().startswith("Not Available")
    text = page.inner_text("#run-output")
    assert NOT_AVAILABLE in text and "does not count against you" in text
    assert "Runtime Error" not in text
    color = page.eval_on_selector("#run-output .verdict-label", "e => getComputedStyle(e).color")
    assert color == "rgb(96, 165, 250)", color  # the info blue, not the wrong answers' red
    page.screenshot(path=str(shots / "run-language-unavailable.png"))


def test_the_admin_page_shows_each_workers_environment_and_languages(
    page: Any, broken_server: LiveServer, shots: Path
) -> None:
    page.goto(f"{broken_server.url}/login")
    page.fill("input[name=username]", "teacher")
    page.fill("input[name=password]", "teacher-pass-41")
    page.click("button[type=submit]")
    page.wait_for_load_state()
    page.goto(f"{broken_server.url}/admin#workers")
    section = page.locator("#workers")
    text = section.inner_text()
    assert "embedded-cpu@" in text and "CPU" in text
    assert "none (graded on the CPU)" in text and "torch " in text and "numba " in text
    numba = section.locator("tr[data-language=numba]").inner_text()
    assert "unavailable" in numba and ERROR in numba
    cuda = section.locator("tr[data-language=cuda]").inner_text()
    assert "ok" in cuda and "not_run" in cuda
    section.screenshot(path=str(shots / "admin-workers.png"))
