"""Deleting an account (app/erase.py) takes the learner's solutions, comments, votes and
notifications with it, and others' votes on them or replies to them do not block it."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app import erase
from app.models import User
from app.social.models import Comment, Notification, PublishedSolution, SolutionVote
from tests.app.social.helpers import accepted, learner


def test_an_account_with_a_voted_solution_and_replies_is_deleted(
    client: TestClient, engine: Engine
) -> None:
    alice, bob = learner(client, "alice"), learner(client, "bob")
    sub = accepted(engine, "alice")
    sid = alice.post("/api/v1/solutions", json={"submission_id": sub, "title": "t"}).json()["id"]
    accepted(engine, "bob")
    bob.put(f"/api/v1/solutions/{sid}/vote", json={})
    top = alice.post("/api/v1/problems/toy-add/comments", json={"body": "q"}).json()["id"]
    bob.post("/api/v1/problems/toy-add/comments", json={"body": "a", "parent_id": top})
    alice.post("/api/v1/problems/toy-add/comments", json={"body": "b", "parent_id": top + 1})

    with Session(engine) as s:
        u = s.exec(select(User).where(User.username == "alice")).one()
        counts = erase.erase(s, u)
    assert counts["publishedsolution"] == 1 and counts["comment"] == 2
    assert counts["notification"] == 1  # bob's reply to her
    with Session(engine) as s:
        assert s.exec(select(PublishedSolution)).all() == []
        assert [c.body for c in s.exec(select(Comment)).all()] == ["a"]
        # Bob's own notification of her reply stays his, and quotes none of her words.
        assert [n.text for n in s.exec(select(Notification)).all()] == [
            "alice replied to your comment on the discussion of toy-add"
        ]
        assert len(s.exec(select(SolutionVote)).all()) == 1  # bob's, on nothing now
    # Bob's reply, whose parent is gone, is drawn at the top of the thread.
    thread = bob.get("/api/v1/problems/toy-add/comments").json()["comments"]
    assert [(c["body"], c["depth"]) for c in thread] == [("a", 0)]
    assert bob.get(f"/api/v1/solutions/{sid}").status_code == 404
