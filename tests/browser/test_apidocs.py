"""The API docs page in Chromium (#37, item 11): Swagger UI in its own dark theme, as the rest of
the site (it was a white panel), each operation with a description. Screenshot:
test-artifacts/screenshots/apidocs.png."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def _luminance(css: str) -> float:
    r, g, b = (int(x) for x in re.findall(r"\d+", css)[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


def test_the_api_docs_are_dark_and_describe_each_operation(
    page: Any, live_server: LiveServer, shots: Path
) -> None:
    page.goto(f"{live_server.url}/api/v1/docs")
    page.wait_for_selector(".swagger-ui .opblock")
    card = page.evaluate("getComputedStyle(document.querySelector('.api-docs')).backgroundColor")
    assert _luminance(card) < 0.2, card  # not a white panel
    tag = page.locator(".swagger-ui .opblock-tag").first
    assert _luminance(tag.evaluate("e => getComputedStyle(e).color")) > 0.7  # light text
    path = page.locator(".swagger-ui .opblock-summary-path", has_text="/api/v1/auth/me").first
    row = path.locator("xpath=ancestor::div[contains(@class, 'opblock-summary')][1]")
    assert "The logged-in user" in row.inner_text()
    row.click()
    page.wait_for_selector(".swagger-ui .opblock.is-open .opblock-description")
    assert "this cookie or token" in page.inner_text(".swagger-ui .opblock.is-open")
    page.screenshot(path=str(shots / "apidocs.png"))
