"""The retry cap (issue 18, point 13): after MAX_TRIES lost gradings a submission ends as
internal_error, with a message for the learner and the reason for admins only."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app import retries, submissions
from app.accounts import create_admin
from app.models import Status, Submission
from tests.app.conftest import signup

GOOD = "import triton\n\ndef solve(a, b, c, n):\n    pass\n"


def _get(engine: Engine, sid: int) -> Submission:
    with Session(engine) as s:
        sub = s.get(Submission, sid)
        assert sub is not None
        return sub


def test_a_submission_whose_grading_keeps_dying_ends_as_internal_error(
    client: TestClient, engine: Engine
) -> None:
    csrf = signup(client)
    body = {"problem": "toy-add", "language": "triton", "source": GOOD}
    sid = client.post("/api/v1/submissions", json=body, headers={"X-CSRF-Token": csrf}).json()["id"]
    holder = None
    for n in range(1, retries.MAX_TRIES + 1):
        # Each grading process is killed; its sibling takes the claim over at once.
        me = f"w@host/{1000 + n}"
        assert submissions.claim(engine, sid, me, stale_s=3600, takeover=holder) == n
        holder = me
    assert submissions.claim(engine, sid, "w@host/2000", stale_s=3600, takeover=holder) is None
    sub = _get(engine, sid)
    assert (sub.status, sub.verdict, sub.tries) == (Status.DONE, "internal_error", 3)
    assert "w@host/1003" in (sub.result or {})["internal"]
    # The learner reads the message written for them; the reason stays with admins.
    mine = client.get(f"/api/v1/submissions/{sid}").json()
    assert mine["message"] == retries.GAVE_UP_MESSAGE == mine["result"]["message"]
    assert "internal" not in mine["result"] and "w@host" not in str(mine)
    assert "w@host" not in client.get(f"/submissions/{sid}").text
    with Session(engine) as s:
        create_admin(s, "teacher", "kernel-dojo-pass")
    admin = TestClient(client.app)
    admin.post("/api/v1/auth/login", json={"username": "teacher", "password": "kernel-dojo-pass"})
    assert "w@host/1003" in admin.get(f"/api/v1/submissions/{sid}").json()["result"]["internal"]
    assert "w@host/1003" in admin.get(f"/submissions/{sid}").text
    # A rejudge starts the count again.
    with Session(engine) as s:
        row = s.get(Submission, sid)
        assert row is not None
        submissions.requeue(s, row)
    assert submissions.claim(engine, sid, "w@host/3000", stale_s=3600) == 5


def test_a_live_claim_is_not_taken_over(engine: Engine, client: TestClient) -> None:
    csrf = signup(client)
    body = {"problem": "toy-add", "language": "triton", "source": GOOD}
    sid = client.post("/api/v1/submissions", json=body, headers={"X-CSRF-Token": csrf}).json()["id"]
    assert submissions.claim(engine, sid, "w@host/1", stale_s=3600) == 1
    # A takeover names a specific dead claimer; another one's claim stays.
    assert submissions.claim(engine, sid, "w@host/2", stale_s=3600, takeover="w@host/9") is None
    assert _get(engine, sid).status == Status.RUNNING
