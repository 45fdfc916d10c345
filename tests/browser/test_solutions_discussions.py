"""Published solutions and discussions in Chromium (issue 40), against ``kerneldojo serve``.

A learner publishes an accepted submission with a write-up (math typeset, code highlighted);
a second learner who solved the problem reads and votes for it; a third, who did not, is
refused and offered to give up. A comment carrying a hostile payload (script, ``javascript:``
and ``data:`` links, an ``onerror`` image, HTML inside code) renders inert; a reply rings the
bell; an admin hides the comment and locks the thread. The acceptances are recorded H100
results written to the server's database (this machine has no GPU to time them): the solution
page must show their stored figures. Screenshots: solution.png and discussion.png in
test-artifacts/screenshots/ (docs/screenshots/ keeps copies, looked at).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session, select

from app.core.db import make_engine
from app.models import Mode, Status, Submission, User
from tests.browser.test_learner import sign_up
from tests.conftest import ROOT, LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]
TRITON = (ROOT / "problems/vector-add/solutions/accepted/triton_fast.py").read_text()
WRITEUP = """## Idea

Vector addition moves $3n$ floats and does $n$ additions: it is bound by memory, so the
whole game is bandwidth. With $n = 2^{25}$ the floor is

$$t \\ge \\frac{3 \\cdot 4n \\text{ bytes}}{3.35\\,\\text{TB/s}} \\approx 120\\,\\mu s.$$

- **4096 elements per program**, 8 warps: 16 floats per thread, four 128-bit loads each.
- Only the last program needs its mask.

```triton
mask = offs < n  # only the last program has a partial block
tl.store(c_ptr + offs, a + b, mask=mask)
```
"""
HINT = """Yes, with a mask for the last one: $\\lceil n / 4096 \\rceil$ programs cover every element.

```triton
grid = (triton.cdiv(n, BLOCK),)
```
"""
EVIL = ".comment:has-text('Try this')"  # the hostile comment
HOSTILE = """Try this <script>window.__pwned = 1</script> and
[click me](javascript:window.__pwned=2) or [this](data:text/html,<script>alert(1)</script>)
<img src=x onerror="window.__pwned=3"> <b onmouseover="window.__pwned=4">bold</b>

```cuda
</code></pre><script>window.__pwned = 5</script><a href="javascript:window.__pwned=6">x</a>
```
"""


def _accepted(server: LiveServer, username: str, language: str, source: str, ms: float) -> int:
    """A recorded H100 acceptance of vector-add with its benchmark cases; its id."""
    engine = make_engine(server.database_url)
    at = datetime.now(UTC)
    bench = [
        {"name": name, "median_ms": ms * f, "iqr_ms": ms / 50, "runs": 120, "gbps": 3100.0 / f,
         "tflops": 0.26 / f, "sol_ms": ms * f * p / 100, "bound": "memory", "sol_pct": p}
        for name, f, p in (("n=2^20", 0.1, 71.0), ("n=2^25", 1.0, 94.0))
    ]  # fmt: skip
    result = {"verdict": "accepted", "benchmark": bench, "score_ms": ms, "cases": [],
              "device": "NVIDIA H100 80GB HBM3"}  # fmt: skip
    with Session(engine) as s:
        uid = s.exec(select(User.id).where(User.username == username)).one()
        assert uid is not None
        sub = Submission(
            user_id=uid, problem="vector-add", language=language, gpu_kind="h100",
            source=source, mode=Mode.SUBMIT, status=Status.DONE, verdict="accepted",
            score_ms=ms, result_json=json.dumps(result), created_at=at, finished_at=at,
        )  # fmt: skip
        s.add(sub)
        s.commit()
        s.refresh(sub)
        assert sub.id is not None
        sid = sub.id
    engine.dispose()
    return sid


def _make_admin(server: LiveServer, username: str) -> None:
    engine = make_engine(server.database_url)
    with Session(engine) as s:
        u = s.exec(select(User).where(User.username == username)).one()
        u.is_admin = True
        s.add(u)
        s.commit()
    engine.dispose()


def _fits_a_phone(page: Any, url: str) -> None:
    """At 390 px wide nothing runs off the screen (wide code scrolls inside its block)."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(url)
    wide = page.evaluate(
        """[...document.querySelectorAll('main *')]
        .filter(e => e.getBoundingClientRect().right > 391 && !e.closest('pre'))
        .map(e => e.tagName + '.' + e.className)"""
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, wide
    page.set_viewport_size({"width": 1440, "height": 900})


@contextmanager
def _learner(browser: Any, server: LiveServer) -> Iterator[tuple[Any, str]]:
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, device_scale_factor=1)
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.dialogs = dialogs
    try:
        yield page, sign_up(page, server)
    finally:
        ctx.close()


def test_publish_read_by_a_solver_refused_to_another(
    browser: Any, live_server: LiveServer, shots: Path
) -> None:
    url = live_server.url
    with (
        _learner(browser, live_server) as (author, author_name),
        _learner(browser, live_server) as (reader, reader_name),
        _learner(browser, live_server) as (outsider, _),
    ):
        sub = _accepted(live_server, author_name, "triton", TRITON, 0.1372)
        author.goto(f"{url}/submissions/{sub}")
        author.click("#publish-link")
        author.fill("input[name=title]", "4096 per program, 8 warps: at the copy bandwidth")
        author.fill("textarea[name=writeup]", WRITEUP)
        author.click("#publish")
        author.wait_for_url(re.compile(r"/solutions/\d+$"))
        sol_url = author.url
        facts = author.locator("#solution-facts").inner_text()
        # The stored result's figures: 137.2 µs, and sqrt(71 * 94) = 81.7% of the speed of light.
        assert "Accepted" in facts and "137.2 µs" in facts and "82%" in facts and "H100" in facts
        assert author.locator("#unpublish").count() == 1

        _accepted(live_server, reader_name, "cuda", "// recorded\n", 0.1410)
        reader.goto(f"{url}/problems/vector-add")
        reader.click("#solutions-link")
        reader.wait_for_url(re.compile(r"/problems/vector-add/solutions$"))
        reader.click("a.problem-link:has-text('4096 per program')")
        reader.wait_for_url(sol_url)
        reader.wait_for_function("document.querySelectorAll('#writeup .katex').length >= 3")
        assert reader.locator(".solution-code .tok-keyword").count() > 0  # highlighted
        assert reader.locator("#writeup pre.code .tok-comment").count() == 1
        assert (
            "tl.store(c_ptr + offs, a + b, mask=mask)"
            in reader.locator(".solution-code").inner_text()
        )
        reader.click("#vote-solution")
        reader.wait_for_url(sol_url)
        assert reader.locator("#vote-solution").inner_text().strip() == "▲ 1"
        reader.locator("textarea[name=body]").last.fill(
            "Neat. Did `evict_first` on the loads change anything for $n = 2^{25}$?"
        )
        reader.click("#comment-form button[type=submit]")
        reader.wait_for_selector(".comment .katex")
        reader.goto(sol_url)  # from the top, the comment not singled out by its anchor
        reader.wait_for_function("document.querySelectorAll('#writeup .katex').length >= 4")
        reader.screenshot(path=str(shots / "solution.png"), full_page=True)

        _fits_a_phone(reader, sol_url)

        # Not solved: refused, with the way out offered.
        resp = outsider.goto(sol_url)
        assert resp is not None and resp.status == 403
        assert "open once you have solved it" in outsider.content()
        outsider.goto(f"{url}/problems/vector-add/solutions")
        assert outsider.locator("#solutions-refused").is_visible()
        assert "4096 per program" not in outsider.content()
        outsider.click("#give-up")
        outsider.wait_for_selector("a.problem-link:has-text('4096 per program')")
        assert not (author.dialogs or reader.dialogs or outsider.dialogs)


def test_a_hostile_comment_is_inert_and_moderated(
    browser: Any, live_server: LiveServer, shots: Path
) -> None:
    url = live_server.url
    thread = f"{url}/problems/vector-add/discussion"
    with (
        _learner(browser, live_server) as (mallory, _),
        _learner(browser, live_server) as (ada, _),
        _learner(browser, live_server) as (root, root_name),
    ):
        _make_admin(live_server, root_name)
        ada.goto(thread)
        ada.fill("#comment-form textarea", "Is $\\lceil n / 4096 \\rceil$ programs enough?")
        ada.click("#comment-form button[type=submit]")
        ada.wait_for_selector(".comment .katex")

        root.goto(thread)
        root.fill("#comment-form textarea", HINT)
        root.click("#comment-form button[type=submit]")
        root.wait_for_selector(".comment:has-text('Yes, with a mask') details.spoiler")

        mallory.goto(thread)
        mallory.fill("#comment-form textarea", HOSTILE)
        mallory.click("#comment-form button[type=submit]")
        mallory.wait_for_selector(f"{EVIL} .comment-body")
        for page in (mallory, ada):
            page.goto(thread)
            page.wait_for_load_state("networkidle")
            page.hover(f"{EVIL} .comment-body")
            assert page.evaluate("window.__pwned") is None
            assert page.locator(".comment-body script, .comment-body img").count() == 0
            assert page.locator("a[href^='javascript:' i], a[href^='data:' i]").count() == 0
            assert page.locator(".comment-body [onmouseover], .comment-body [onerror]").count() == 0
            text = page.locator(f"{EVIL} .comment-body").inner_text()
            assert "<script>window.__pwned = 1</script>" in text  # shown as the text it is
        # No spoilers: the code is folded until opened, and then it is text.
        spoiler = ada.locator(f"{EVIL} details.spoiler")
        assert spoiler.count() == 1 and spoiler.get_attribute("open") is None
        assert not ada.locator(f"{EVIL} pre.code").is_visible()
        spoiler.locator("summary").click()
        code = ada.locator(f"{EVIL} pre.code").inner_text()
        assert "</code></pre><script>window.__pwned = 5</script>" in code
        assert ada.evaluate("window.__pwned") is None

        # A reply rings the bell of the comment's author.
        ada.locator(f"{EVIL} details.comment-form-fold summary").first.click()
        ada.fill(f"{EVIL} .comment-form textarea", "Please don't.")
        ada.click(f"{EVIL} .comment-form button[type=submit]")
        ada.wait_for_selector(".comment.depth-1")
        mallory.goto(f"{url}/problems")
        assert mallory.locator("#bell .bell-count").inner_text() == "1"
        ada.goto(thread)
        ada.wait_for_selector(".comment .katex")
        ada.screenshot(path=str(shots / "discussion.png"), full_page=True)

        # On a phone nothing runs off the screen, replies and folded code included.
        _fits_a_phone(ada, thread)

        # The admin hides it and locks the thread.
        root.goto(thread)
        root.click(f"{EVIL} button.mod")
        root.wait_for_selector(".comment.is-hidden")
        root.click("#lock-thread")
        root.wait_for_selector("#thread-locked")
        ada.goto(thread)
        assert "[hidden by a moderator]" in ada.locator(".comment.is-hidden").inner_text()
        assert "window.__pwned" not in ada.content()
        assert ada.locator("#thread-locked").is_visible()
        assert ada.locator("#comment-form").count() == 0
        assert not (mallory.dialogs or ada.dialogs or root.dialogs)
