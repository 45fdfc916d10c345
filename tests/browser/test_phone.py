"""The site on a 390 px phone in Chromium (#37, item 11): the top bar's links ran off-screen
(now they fold behind a Menu button that opens and closes them), and a statement's wide
equations were clipped (now they scroll sideways). Screenshot:
test-artifacts/screenshots/phone-menu.png (docs/screenshots/ keeps a copy, looked at)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session

from app.accounts import create_admin
from app.core.db import make_engine
from tests.conftest import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

WIDTH, HEIGHT = 390, 844
ADMIN, PASSWORD = "phone-teacher", "phone-teacher-pass-37"


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(
        viewport={"width": WIDTH, "height": HEIGHT}, device_scale_factor=1, is_mobile=True
    )
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    yield pg
    ctx.close()


def _inside(box: dict[str, float] | None) -> bool:
    return (
        box is not None
        and box["width"] > 0
        and box["x"] >= 0
        and box["x"] + box["width"] <= WIDTH
        and box["y"] >= 0
        and box["y"] + box["height"] <= HEIGHT
    )


def test_the_menu_opens_and_every_link_is_in_view(
    phone: Any, live_server: LiveServer, shots: Path
) -> None:
    engine = make_engine(live_server.database_url)
    with Session(engine) as s:
        create_admin(s, ADMIN, PASSWORD)
    engine.dispose()
    phone.goto(f"{live_server.url}/login")
    phone.fill("input[name=username]", ADMIN)
    phone.fill("input[name=password]", PASSWORD)
    phone.click("button[type=submit]")
    phone.wait_for_url("**/problems")
    assert phone.evaluate("document.documentElement.scrollWidth") <= WIDTH  # nothing runs off

    toggle = phone.locator(".menu-toggle")
    assert toggle.is_visible() and toggle.get_attribute("aria-expanded") == "false"
    links = phone.locator(".site-menu a, .site-menu button")
    assert links.count() >= 9  # Learn ... Admin, the user, Tokens, Account, Log out
    assert not any(links.nth(i).is_visible() for i in range(links.count()))

    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    for i in range(links.count()):
        link = links.nth(i)
        assert link.is_visible(), link.inner_text()
        assert _inside(link.bounding_box()), (link.inner_text(), link.bounding_box())
    names = [links.nth(i).inner_text().strip() for i in range(links.count())]
    for name in ("Learn", "Problems", "Leaderboard", "Classes", "API", "Admin", "Log out"):
        assert name in names, names
    phone.screenshot(path=str(shots / "phone-menu.png"))

    phone.locator(".site-menu a", has_text="Leaderboard").click()  # a link works
    phone.wait_for_url("**/leaderboard")
    toggle = phone.locator(".menu-toggle")
    toggle.click()
    phone.keyboard.press("Escape")  # closes, the focus back on the button
    assert toggle.get_attribute("aria-expanded") == "false"
    assert not phone.locator(".site-menu a", has_text="Learn").is_visible()
    assert phone.evaluate("document.activeElement.classList.contains('menu-toggle')")


def test_a_wide_equation_scrolls_instead_of_being_clipped(
    phone: Any, live_server: LiveServer, shots: Path
) -> None:
    phone.goto(f"{live_server.url}/problems/decode-attention")
    phone.wait_for_function(
        "[...document.querySelectorAll('.markdown .math')].every(e => e.querySelector('.katex'))"
    )
    assert phone.evaluate("document.documentElement.scrollWidth") <= WIDTH
    wide = phone.evaluate(
        """[...document.querySelectorAll('.markdown .math.block')].map(e => {
            const k = e.querySelector('.katex-display > .katex') || e.querySelector('.katex');
            return [e.clientWidth, k.scrollWidth, getComputedStyle(e).overflowX];
        }).filter(([w, s]) => s > w + 1)"""
    )
    assert wide, "decode-attention has an equation wider than a phone"
    for client, width, overflow in wide:
        assert overflow in ("auto", "scroll"), (client, width, overflow)
    # It scrolls: the block's scroll range covers the whole equation.
    ranges = phone.evaluate(
        """[...document.querySelectorAll('.markdown .math.block')]
            .filter(e => e.scrollWidth > e.clientWidth + 1)
            .map(e => { e.scrollLeft = 1e6; return [e.scrollLeft, e.scrollWidth - e.clientWidth]; })"""
    )
    assert ranges and all(left > 0 for left, _ in ranges), ranges
    phone.evaluate(
        "document.querySelectorAll('.markdown .math.block').forEach(e => { e.scrollLeft = 0; })"
    )
    phone.screenshot(path=str(shots / "phone-equation.png"))


def test_on_a_wide_screen_the_links_show_without_a_menu_button(
    page: Any, live_server: LiveServer, shots: Path
) -> None:
    page.goto(f"{live_server.url}/problems")
    assert not page.locator(".menu-toggle").is_visible()
    for name in ("Learn", "Problems", "Leaderboard", "API"):
        assert page.locator(".site-menu nav a", has_text=name).is_visible()
    page.screenshot(
        path=str(shots / "wide-header.png"), clip={"x": 0, "y": 0, "width": 1440, "height": 120}
    )
