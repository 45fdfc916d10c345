"""Editor drafts on the server and past submissions opened in the editor (issue 23, item 7)."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from tests.app.conftest import signup
from tests.app.pages.test_pages import _page_data
from tests.app.test_capabilities import finish, submit

URL = "/api/v1/drafts/toy-add"


def test_drafts_are_kept_per_problem_and_language(client: TestClient) -> None:
    csrf = signup(client)
    h = {"X-CSRF-Token": csrf}
    assert client.put(f"{URL}/triton", json={"source": "# one"}, headers=h).status_code == 204
    assert client.put(f"{URL}/triton", json={"source": "# two"}, headers=h).status_code == 204
    assert client.put(f"{URL}/cuda", json={"source": "// cu"}, headers=h).status_code == 204
    got = {d["language"]: d["source"] for d in client.get(URL).json()}
    assert got == {"triton": "# two", "cuda": "// cu"}
    data = _page_data(client.get("/problems/toy-add").text)  # another browser starts from these
    assert data["drafts"]["triton"]["source"] == "# two" and data["drafts"]["triton"]["updated"] > 0
    assert client.delete(f"{URL}/cuda", headers=h).status_code == 204
    assert [d["language"] for d in client.get(URL).json()] == ["triton"]


def test_drafts_are_private_and_checked(client: TestClient) -> None:
    csrf = signup(client, "alice")
    h = {"X-CSRF-Token": csrf}
    client.put(f"{URL}/triton", json={"source": "# alice's"}, headers=h)
    r = client.put(f"{URL}/cobol", json={"source": "x"}, headers=h)
    assert r.status_code == 422 and "unknown language 'cobol'" in r.json()["detail"]
    r = client.put("/api/v1/drafts/nope/triton", json={"source": "x"}, headers=h)
    assert r.status_code == 404
    r = client.put(f"{URL}/triton", json={"source": "x" * 2001}, headers=h)  # MAX_SOURCE_BYTES
    assert r.status_code == 413 and "at most 2000 bytes" in r.json()["detail"]
    assert client.put(f"{URL}/triton", json={"source": "x"}).status_code == 403  # no CSRF
    bob = TestClient(client.app)
    assert bob.get(URL).status_code == 401
    signup(bob, "bob")
    assert bob.get(URL).json() == []
    assert _page_data(bob.get("/problems/toy-add").text)["drafts"] == {}


def test_a_past_submission_opens_in_the_editor(client: TestClient, engine: Engine) -> None:
    signup(client, "alice")
    sid = submit(client)
    msg = "line 1: invalid syntax"
    finish(engine, sid, "compile_error", message=msg, compile={"ok": False, "log": ""})
    assert f'href="/problems/toy-add?from={sid}"' in client.get(f"/submissions/{sid}").text
    data = _page_data(client.get(f"/problems/toy-add?from={sid}").text)
    opened = data["opened"]
    assert opened["id"] == sid and opened["source"] == "x = 1" and opened["language"] == "triton"
    assert opened["verdict"] == "compile_error" and opened["message"] == msg and opened["mine"]
    assert [s["id"] for s in data["recent"]] == [sid]  # the list to open or compare from
    # Someone who has not solved the problem may not open alice's code, nor see it.
    bob = TestClient(client.app)
    signup(bob, "bob")
    data = _page_data(bob.get(f"/problems/toy-add?from={sid}").text)
    assert "source" not in data["opened"] and "not yours to open" in data["opened"]["error"]
    assert "Open in editor" not in bob.get(f"/submissions/{sid}").text
    data = _page_data(client.get("/problems/toy-add?from=99999").text)
    assert "not a submission to this problem" in data["opened"]["error"]
    assert client.get("/problems/toy-add?from=abc").status_code == 422


def test_recent_submissions_come_before_the_statement(client: TestClient) -> None:
    signup(client)
    sid = submit(client)
    html = client.get("/problems/toy-add").text
    assert html.index("Your submissions") < html.index('class="markdown"')
    assert f'data-diff="{sid}"' in html and f"?from={sid}" in html
