"""Published solutions (issue 40): publishing an accepted submission, who reads it (solved,
gave up, admins), the figures shown from the stored result, sorting, unpublishing, hiding,
votes; through the API and the pages, on SQLite and PostgreSQL."""

from __future__ import annotations

import shutil
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.core.config import Settings
from app.main import create_app
from app.models import Submission
from app.social.models import EditorialOpened
from tests.app.conftest import Queue
from tests.app.social.helpers import accepted, learner
from tests.conftest import FIXTURE_PROBLEMS

WRITEUP = "One pass with $m = \\max_j x_j$.\n\n```triton\ntl.store(p, x)\n```\n"


def _publish(c: TestClient, sub: int, title: str = "One pass", writeup: str = WRITEUP) -> int:
    r = c.post("/api/v1/solutions", json={"submission_id": sub, "title": title, "writeup": writeup})
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def test_publish_and_read_as_a_solver_refused_to_others(client: TestClient, engine: Engine) -> None:
    alice, bob, carol = (learner(client, n) for n in ("alice", "bob", "carol"))
    sub = accepted(engine, "alice", score_ms=0.25, sol_pcts=(40.0, 90.0))
    sid = _publish(alice, sub)
    accepted(engine, "bob", score_ms=0.4)

    got = bob.get(f"/api/v1/solutions/{sid}").json()
    assert got["title"] == "One pass" and got["username"] == "alice"
    # The figures are the stored result's: score_ms, and the geometric mean of the cases' %.
    assert got["verdict"] == "accepted" and got["score_ms"] == 0.25
    assert abs(got["sol_pct"] - 60.0) < 1e-9
    assert got["source"].startswith("def solve")
    assert '<span class="math inline">' in got["writeup_html"]
    assert [s["id"] for s in bob.get("/api/v1/problems/toy-add/solutions").json()] == [sid]

    # Carol has not solved toy-add: refused, in the API and on the page.
    r = carol.get(f"/api/v1/solutions/{sid}")
    assert r.status_code == 403 and "solved it" in r.json()["detail"]
    assert carol.get("/api/v1/problems/toy-add/solutions").status_code == 403
    page = carol.get("/problems/toy-add/solutions")
    assert page.status_code == 403 and 'id="give-up"' in page.text and "One pass" not in page.text
    assert carol.get(f"/solutions/{sid}").status_code == 403
    # A wrong answer solves nothing.
    accepted(engine, "carol", verdict="wrong_answer")
    assert carol.get(f"/api/v1/solutions/{sid}").status_code == 403


def test_giving_up_is_recorded_and_opens_the_solutions(client: TestClient, engine: Engine) -> None:
    alice, dave = learner(client, "alice"), learner(client, "dave")
    sid = _publish(alice, accepted(engine, "alice"))
    assert dave.get(f"/api/v1/solutions/{sid}").status_code == 403
    assert dave.post("/api/v1/problems/toy-add/give-up").status_code == 204
    assert dave.post("/api/v1/problems/nope/give-up").status_code == 404
    with Session(engine) as s:
        rows = s.exec(select(EditorialOpened).where(EditorialOpened.problem == "toy-add")).all()
        assert len(rows) == 1
    assert dave.get(f"/api/v1/solutions/{sid}").status_code == 200
    page = dave.get("/problems/toy-add/solutions").text
    assert f'href="/solutions/{sid}"' in page and 'id="give-up"' not in page


def test_the_give_up_form_needs_its_csrf_token(client: TestClient) -> None:
    eve = learner(client, "eve")
    assert eve.post("/problems/toy-add/give-up", data={}).status_code == 403
    token = eve.headers["X-CSRF-Token"]
    r = eve.post("/problems/toy-add/give-up", data={"csrf_token": token}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/problems/toy-add/solutions"


def test_only_an_accepted_submission_of_ones_own_is_published(
    client: TestClient, engine: Engine
) -> None:
    alice, bob = learner(client, "alice"), learner(client, "bob")
    wrong = accepted(engine, "alice", verdict="wrong_answer")
    r = alice.post("/api/v1/solutions", json={"submission_id": wrong, "title": "x"})
    assert r.status_code == 422 and "accepted" in r.json()["detail"]
    mine = accepted(engine, "alice")
    r = bob.post("/api/v1/solutions", json={"submission_id": mine, "title": "mine now"})
    assert r.status_code == 404
    r = alice.post("/api/v1/solutions", json={"submission_id": mine, "title": "  "})
    assert r.status_code == 422
    with Session(engine) as s:  # a Run is no acceptance of record
        sub = s.get(Submission, mine)
        assert sub is not None
        sub.mode = "run"
        s.add(sub)
        s.commit()
    r = alice.post("/api/v1/solutions", json={"submission_id": mine, "title": "x"})
    assert r.status_code == 422


def test_sorted_by_votes_or_by_speed(client: TestClient, engine: Engine) -> None:
    alice, bob, carol = (learner(client, n) for n in ("alice", "bob", "carol"))
    slow = _publish(alice, accepted(engine, "alice", score_ms=2.0), "slow")
    fast = _publish(bob, accepted(engine, "bob", score_ms=0.5), "fast")
    accepted(engine, "carol")
    assert carol.put(f"/api/v1/solutions/{slow}/vote", json={"up": True}).json() == {"votes": 1}
    assert bob.put(f"/api/v1/solutions/{slow}/vote", json={}).json() == {"votes": 2}
    assert bob.put(f"/api/v1/solutions/{fast}/vote", json={}).status_code == 403  # one's own
    ids = [s["id"] for s in carol.get("/api/v1/problems/toy-add/solutions").json()]
    assert ids == [slow, fast]
    by_speed = carol.get("/api/v1/problems/toy-add/solutions?sort=speed").json()
    assert [s["id"] for s in by_speed] == [fast, slow]
    r = carol.get("/api/v1/problems/toy-add/solutions?sort=stars")
    assert r.status_code == 422 and "votes, speed" in r.json()["detail"]
    # Votes taken back; a vote twice counts once.
    carol.put(f"/api/v1/solutions/{slow}/vote", json={"up": True})
    assert carol.put(f"/api/v1/solutions/{slow}/vote", json={"up": False}).json() == {"votes": 1}
    page = carol.get("/problems/toy-add/solutions?sort=speed").text
    assert page.index(">fast<") < page.index(">slow<")


def test_unpublish_and_admin_hide(client: TestClient, engine: Engine) -> None:
    alice, bob = learner(client, "alice"), learner(client, "bob")
    root = learner(client, "root", admin=True)
    sid = _publish(alice, accepted(engine, "alice"))
    accepted(engine, "bob")
    assert bob.delete(f"/api/v1/solutions/{sid}").status_code == 404  # not bob's
    assert root.delete(f"/api/v1/solutions/{sid}").status_code == 403  # admins hide instead

    assert bob.put(f"/api/v1/admin/solutions/{sid}/hidden", json={}).status_code == 403
    assert (
        root.put(f"/api/v1/admin/solutions/{sid}/hidden", json={"hidden": True}).status_code == 204
    )
    assert bob.get(f"/api/v1/solutions/{sid}").status_code == 404
    assert bob.get("/api/v1/problems/toy-add/solutions").json() == []
    assert alice.get(f"/api/v1/solutions/{sid}").json()["hidden"] is True  # the author still
    assert root.get("/api/v1/problems/toy-add/solutions").json()[0]["hidden"] is True
    root.put(f"/api/v1/admin/solutions/{sid}/hidden", json={"hidden": False})
    assert bob.get(f"/api/v1/solutions/{sid}").status_code == 200

    assert alice.delete(f"/api/v1/solutions/{sid}").status_code == 204
    assert bob.get(f"/api/v1/solutions/{sid}").status_code == 404
    assert bob.get("/api/v1/problems/toy-add/solutions").json() == []
    # Publishing the same submission again brings it back, with the same id.
    sub = alice.get(f"/api/v1/solutions/{sid}").json()["submission_id"]
    assert _publish(alice, sub, "again") == sid
    assert bob.get(f"/api/v1/solutions/{sid}").json()["title"] == "again"


def test_the_pages_publish_show_and_offer_publishing(client: TestClient, engine: Engine) -> None:
    alice, bob = learner(client, "alice"), learner(client, "bob")
    sub = accepted(engine, "alice", score_ms=0.25)
    assert 'id="publish-link"' in alice.get(f"/submissions/{sub}").text
    assert 'id="publish-link"' not in bob.get(f"/submissions/{sub}").text
    form = alice.get(f"/submissions/{sub}/publish")
    assert form.status_code == 200 and 'id="publish-form"' in form.text
    token = alice.headers["X-CSRF-Token"]
    r = alice.post(
        f"/submissions/{sub}/publish",
        data={"csrf_token": token, "title": "", "writeup": "x"},
    )
    assert r.status_code == 422 and "The title needs" in r.text
    r = alice.post(
        f"/submissions/{sub}/publish",
        data={"csrf_token": token, "title": "Grid-stride", "writeup": WRITEUP},
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"].startswith("/solutions/")
    page = alice.get(r.headers["location"]).text
    assert "Grid-stride" in page and "250.0 µs" in page and "60%" in page
    assert '<pre class="code" data-lang="triton" data-mode="python">' in page
    assert 'id="unpublish"' in page and 'id="vote-solution"' not in page
    accepted(engine, "bob")
    bob_page = bob.get(r.headers["location"]).text
    assert 'id="vote-solution"' in bob_page and 'id="unpublish"' not in bob_page


def test_the_problem_page_links_and_giving_up_opens_the_editorial(
    settings: Settings, queue: Queue, tmp_path: Path
) -> None:
    problems = tmp_path / "problems"
    shutil.copytree(FIXTURE_PROBLEMS / "toy-add", problems / "toy-add")
    (problems / "toy-add" / "editorial.md").write_text("The EDITORIAL_TEXT of toy-add.")
    s = settings.model_copy(update={"PROBLEMS_DIR": problems})
    with TestClient(create_app(s, enqueue=queue)) as client:
        frank = learner(client, "frank")
        page = frank.get("/problems/toy-add").text
        assert 'href="/problems/toy-add/solutions"' in page
        assert 'href="/problems/toy-add/discussion"' in page
        assert "EDITORIAL_TEXT" not in page
        refused = frank.get("/problems/toy-add/solutions").text
        assert "Give up and open the editorial and the solutions" in refused
        frank.post("/api/v1/problems/toy-add/give-up")
        page = frank.get("/problems/toy-add").text
        assert "EDITORIAL_TEXT" in page and "open since you gave up on it" in page


def test_a_hidden_or_rejudged_submission_takes_its_solution_away(
    client: TestClient, engine: Engine
) -> None:
    alice, bob = learner(client, "alice"), learner(client, "bob")
    sub = accepted(engine, "alice")
    sid = _publish(alice, sub)
    accepted(engine, "bob")
    for change in ({"hidden": True}, {"verdict": "wrong_answer"}):
        with Session(engine) as s:
            row = s.get(Submission, sub)
            assert row is not None
            row.hidden, row.verdict = False, "accepted"
            for k, v in change.items():
                setattr(row, k, v)
            s.add(row)
            s.commit()
        assert bob.get(f"/api/v1/solutions/{sid}").status_code == 404
        assert bob.get("/api/v1/problems/toy-add/solutions").json() == []
        assert alice.get(f"/api/v1/solutions/{sid}").status_code == 200  # its author still
