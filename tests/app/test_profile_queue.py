"""Profile jobs (#22): a GPU queue only, one in flight per learner, a lower priority than Submit
on Redis, never ranked."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.core.config import Settings
from app.main import create_app
from app.models import Status, Submission
from app.queue import PRIORITY_GRADING, PRIORITY_TOOLS, make_celery
from tests.app.conftest import Queue, signup

SOURCE = "import triton\n\ndef solve(a, b, c, n):\n    pass\n"


def _post(c: TestClient, csrf: str, mode: str, kind: str = "h100") -> object:
    body = {"problem": "toy-add", "language": "triton", "source": SOURCE, "mode": mode}
    return c.post(
        "/api/v1/submissions", json={**body, "gpu_kind": kind}, headers={"X-CSRF-Token": csrf}
    )


def test_profile_needs_a_gpu_queue(client: TestClient, queue: Queue) -> None:
    csrf = signup(client)
    r = _post(client, csrf, "profile", kind="cpu")
    assert r.status_code == 422  # type: ignore[attr-defined]
    assert "profiling is not enabled on this worker" in r.json()["detail"]  # type: ignore[attr-defined]
    assert queue == []


def test_one_profile_in_flight(client: TestClient, queue: Queue, engine: Engine) -> None:
    csrf = signup(client)
    first = _post(client, csrf, "profile")
    assert first.status_code == 201, first.text  # type: ignore[attr-defined]
    assert first.json()["mode"] == "profile"  # type: ignore[attr-defined]
    again = _post(client, csrf, "profile")
    assert again.status_code == 429  # type: ignore[attr-defined]
    assert "one at a time" in again.json()["detail"]  # type: ignore[attr-defined]
    # Run, Submit and Sanitize are not held back by a profile in flight.
    for mode in ("run", "sanitize", "submit"):
        assert _post(client, csrf, mode).status_code == 201  # type: ignore[attr-defined]
    with Session(engine) as s:
        sub = s.get(Submission, first.json()["id"])  # type: ignore[attr-defined]
        assert sub is not None
        sub.status = Status.DONE
        s.add(sub)
        s.commit()
    assert _post(client, csrf, "profile").status_code == 201  # type: ignore[attr-defined]
    assert [k for _, k in queue] == ["h100"] * 5


def test_profile_is_not_on_the_leaderboard(client: TestClient, engine: Engine) -> None:
    csrf = signup(client)
    ids = {m: _post(client, csrf, m).json()["id"] for m in ("profile", "submit")}  # type: ignore[attr-defined]
    with Session(engine) as s:
        for mode, score in (("profile", 0.01), ("submit", 0.02)):
            sub = s.get(Submission, ids[mode])
            assert sub is not None
            sub.status, sub.verdict, sub.score_ms = Status.DONE, "accepted", score
            s.add(sub)
        s.commit()
    board = client.get("/api/v1/leaderboard/toy-add?gpu=h100").json()
    ranked = {e["submission_id"] for e in board}
    assert ids["submit"] in ranked and ids["profile"] not in ranked


def test_tools_wait_behind_grading_on_redis(settings: Settings) -> None:
    s = settings.model_copy(update={"REDIS_URL": "redis://127.0.0.1:6379/0"})
    opts = make_celery(s).conf.broker_transport_options
    assert opts["queue_order_strategy"] == "priority"
    steps = opts["priority_steps"]
    assert PRIORITY_GRADING in steps and PRIORITY_TOOLS in steps
    assert PRIORITY_GRADING < PRIORITY_TOOLS  # Redis serves the lower number first


def test_report_download(settings: Settings, queue: Queue, engine: Engine, tmp_path: Path) -> None:
    """The API serves a profile's kept report to those who may see the code, and only a name
    of the worker's own pattern."""
    s = settings.model_copy(update={"DATA_DIR": tmp_path})
    (tmp_path / "profiles").mkdir()
    (tmp_path / "profiles" / "toy-add-0123456789abcdef.ncu-rep").write_bytes(b"report")
    (tmp_path / "secret.txt").write_bytes(b"not a report")
    with TestClient(create_app(s, enqueue=queue)) as c:
        csrf = signup(c)
        ids = []
        for name in ("toy-add-0123456789abcdef.ncu-rep", "../secret.txt"):
            sid = _post(c, csrf, "profile").json()["id"]  # type: ignore[attr-defined]
            with Session(engine) as db:
                sub = db.get(Submission, sid)
                assert sub is not None
                sub.status = Status.DONE
                sub.result_json = json.dumps(
                    {"verdict": "accepted", "profile": {"report_file": name}}
                )
                db.add(sub)
                db.commit()
            ids.append(sid)
        r = c.get(f"/api/v1/submissions/{ids[0]}/profile.ncu-rep")
        assert r.status_code == 200 and r.content == b"report"
        assert f"submission-{ids[0]}-toy-add.ncu-rep" in r.headers["content-disposition"]
        assert c.get(f"/api/v1/submissions/{ids[1]}/profile.ncu-rep").status_code == 404
        c.cookies.clear()  # another viewer: the code, and so the report, stay hidden
        assert c.get(f"/api/v1/submissions/{ids[0]}/profile.ncu-rep").status_code == 404
