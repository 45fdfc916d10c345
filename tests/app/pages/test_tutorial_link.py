"""The tutorial can be found once logged in (#37, item 8): `/` sends a learner to /problems,
so Learn and Problems link it."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.app.conftest import signup


def test_learn_and_problems_link_the_tutorial_for_a_logged_in_learner(client: TestClient) -> None:
    signup(client)
    assert client.get("/", follow_redirects=False).status_code in (302, 303, 307)
    for page in ("/learn", "/problems"):
        html = client.get(page).text
        assert 'href="/tutorial"' in html, page
    assert client.get("/tutorial").status_code == 200
