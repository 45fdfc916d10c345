"""Discussions (issue 40): threads on a problem and on a solution, replies, votes, edit and
delete one's own, moderation (hide, lock), the per-user rate limit, spoilers folded on a
problem's thread, hostile Markdown inert on the page; on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from datetime import timedelta

from fastapi.testclient import TestClient
from httpx2 import Response
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.models import utcnow
from app.social import discussions
from app.social.models import Comment
from tests.app.social.helpers import accepted, learner

HOSTILE = (
    "<script>window.pwned = 1</script> [click](javascript:alert(1)) "
    '<img src=x onerror="alert(1)">\n\n```cuda\n</code></pre><script>alert(2)</script>\n```\n'
)


def _post(
    c: TestClient, body: str, parent: int | None = None, where: str = "problems/toy-add"
) -> Response:
    return c.post(f"/api/v1/{where}/comments", json={"body": body, "parent_id": parent})


def test_comment_reply_vote_edit_delete(client: TestClient) -> None:
    alice, bob = learner(client, "alice"), learner(client, "bob")
    r = _post(alice, "Why does **n = 1** fail?")
    assert r.status_code == 201, r.text
    top = r.json()["id"]
    assert "<strong>n = 1</strong>" in r.json()["html"]
    reply = _post(bob, "Mask the tail.", top).json()["id"]
    _post(alice, "Thanks!", reply)

    thread = alice.get("/api/v1/problems/toy-add/comments").json()
    assert [(c["username"], c["depth"]) for c in thread["comments"]] == [
        ("alice", 0),
        ("bob", 1),
        ("alice", 2),
    ]
    assert thread["locked"] is False
    assert bob.put(f"/api/v1/comments/{top}/vote", json={}).json() == {"votes": 1}
    assert alice.put(f"/api/v1/comments/{top}/vote", json={}).status_code == 403  # one's own
    assert bob.patch(f"/api/v1/comments/{top}", json={"body": "mine now"}).status_code == 404
    assert alice.patch(f"/api/v1/comments/{top}", json={"body": "Why **n=1**?"}).status_code == 204
    assert alice.delete(f"/api/v1/comments/{reply}").status_code == 404  # bob's
    assert bob.delete(f"/api/v1/comments/{reply}").status_code == 204
    after = {c["id"]: c for c in alice.get("/api/v1/problems/toy-add/comments").json()["comments"]}
    assert after[top]["body"] == "Why **n=1**?" and after[top]["edited_at"] is not None
    assert after[reply]["deleted"] and after[reply]["body"] == "" and after[reply]["html"] == ""
    assert len(after) == 3  # the reply to the deleted comment stays
    r = _post(alice, "again", reply)
    assert r.status_code == 422 and "not in this thread" in r.json()["detail"]
    assert _post(alice, "   ").status_code == 422
    assert _post(alice, "x", where="problems/nope").status_code == 404


def test_a_reply_notifies_the_author_and_the_bell_counts(client: TestClient) -> None:
    alice, bob = learner(client, "alice"), learner(client, "bob")
    top = _post(alice, "Question").json()["id"]
    _post(alice, "Self-reply tells nobody", top)
    assert alice.get("/api/v1/notifications").json()["unread"] == 0
    reply = _post(bob, "Answer here", top).json()["id"]
    got = alice.get("/api/v1/notifications").json()
    assert got["unread"] == 1
    assert got["items"][0]["kind"] == "reply"
    assert got["items"][0]["text"] == "bob replied to your comment on the discussion of toy-add"
    assert got["items"][0]["link"] == f"/problems/toy-add/discussion#c{reply}"
    page = alice.get("/problems").text
    assert 'class="bell-count">1<' in page
    listing = alice.get("/notifications").text
    assert "bob replied to your comment on the discussion of toy-add" in listing
    assert 'class="notification unread"' in listing
    assert "bell-count" not in alice.get("/problems").text  # read once the page was seen
    assert alice.post("/api/v1/notifications/read", json={}).json() == {"marked": 0}


def test_admins_hide_comments_and_lock_threads(client: TestClient) -> None:
    alice, bob = learner(client, "alice"), learner(client, "bob")
    root = learner(client, "root", admin=True)
    rude = _post(bob, "rude words").json()["id"]
    assert alice.put(f"/api/v1/admin/comments/{rude}/hidden", json={}).status_code == 403
    assert root.put(f"/api/v1/admin/comments/{rude}/hidden", json={}).status_code == 204
    seen = alice.get("/api/v1/problems/toy-add/comments").json()["comments"][0]
    assert seen["hidden"] and seen["body"] == "" and "rude" not in seen["html"]
    assert "rude words" in root.get("/api/v1/problems/toy-add/comments").text
    assert "[hidden by a moderator]" in alice.get("/problems/toy-add/discussion").text
    assert bob.patch(f"/api/v1/comments/{rude}", json={"body": "nicer"}).status_code == 403

    thread = "problem:toy-add"
    assert alice.put(f"/api/v1/admin/threads/{thread}/locked", json={}).status_code == 403
    assert root.put(f"/api/v1/admin/threads/{thread}/locked", json={}).status_code == 204
    r = _post(alice, "too late")
    assert r.status_code == 403 and "locked" in r.json()["detail"]
    page = alice.get("/problems/toy-add/discussion").text
    assert 'id="thread-locked"' in page and 'id="comment-form"' not in page
    root.put(f"/api/v1/admin/threads/{thread}/locked", json={"value": False})
    assert _post(alice, "open again").status_code == 201
    assert root.put("/api/v1/admin/threads/bogus:1/locked", json={}).status_code == 404


def test_the_rate_limit_counts_a_learners_recent_comments(
    client: TestClient, engine: Engine
) -> None:
    alice, bob = learner(client, "alice"), learner(client, "bob")
    for i in range(discussions.PER_MINUTE):
        assert _post(alice, f"comment {i}").status_code == 201
    r = _post(alice, "one too many")
    assert r.status_code == 429 and "at most 5 a minute" in r.json()["detail"]
    assert _post(bob, "bob is not alice").status_code == 201
    with Session(engine) as s:  # a minute later the minute's limit is lifted, not the hour's
        for c in s.exec(select(Comment).where(col(Comment.body).startswith("comment"))).all():
            c.created_at = utcnow() - timedelta(minutes=2)
            s.add(c)
        s.commit()
    assert _post(alice, "a minute later").status_code == 201


def test_a_solution_thread_is_for_its_readers(client: TestClient, engine: Engine) -> None:
    alice, bob, carol = (learner(client, n) for n in ("alice", "bob", "carol"))
    sub = accepted(engine, "alice")
    sid = alice.post(
        "/api/v1/solutions", json={"submission_id": sub, "title": "t", "writeup": ""}
    ).json()["id"]
    accepted(engine, "bob")
    r = _post(bob, "```triton\ntl.load(p)\n```", where=f"solutions/{sid}")
    assert r.status_code == 201
    assert "<details" not in r.json()["html"]  # no spoilers to hide from the solution's readers
    assert _post(carol, "let me in", where=f"solutions/{sid}").status_code == 403
    assert carol.get(f"/api/v1/solutions/{sid}/comments").status_code == 403
    assert "tl.load" in alice.get(f"/solutions/{sid}").text


def test_problem_threads_fold_code_and_hostile_markdown_is_inert(client: TestClient) -> None:
    alice = learner(client, "alice")
    token = alice.headers["X-CSRF-Token"]
    r = alice.post(
        "/discussions/post",
        data={"csrf_token": token, "thread": "problem:toy-add", "body": HOSTILE},
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"].startswith(
        "/problems/toy-add/discussion#c"
    )
    page = alice.get("/problems/toy-add/discussion").text
    body = page.split('class="comment-body markdown">')[1].split('<div class="comment-actions')[0]
    assert "<script" not in body and "<img" not in body
    assert 'href="javascript' not in body and "[click](javascript:alert(1))" in body  # text
    assert "&lt;script&gt;window.pwned = 1&lt;/script&gt;" in body
    assert '<details class="spoiler">' in body
    assert "&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;alert(2)" in body
    # The site's own scripts are the page's only ones.
    scripts = re.findall(r"<script[^>]*>", page)
    assert scripts and all(
        'src="/static/' in tag or 'type="application/json"' in tag for tag in scripts
    ), scripts
    # Without the form's token, nothing is posted.
    r = alice.post("/discussions/post", data={"thread": "problem:toy-add", "body": "x"})
    assert r.status_code == 403
