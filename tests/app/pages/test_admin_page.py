"""The Admin link opens a page titled Admin (#37, item 11: its heading said "Instructor",
which is another role, the one its "Instructors" section grants)."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.accounts import create_admin
from tests.app.pages.test_pages import _form_signup


def test_the_admin_page_is_titled_admin(client: TestClient, engine: Engine) -> None:
    _form_signup(client, "erin")
    with Session(engine) as s:
        create_admin(s, "erin", "kernel-dojo-pass")
    html = client.get("/admin").text
    assert re.search(r'<a href="/admin" class="active">Admin</a>', html)
    h1 = re.search(r"<h1>(.*?)</h1>", html)
    assert h1 is not None and h1.group(1) == "Admin", h1
    assert "<title>Admin · KernelDojo</title>" in html
