"""The playground's API on SQLite and PostgreSQL: a run is checked, queued under its own task,
polled by its owner only, rate-limited, and never a submission; the worker's task runs it."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, func, select

from app.models import PlaygroundRun, Submission
from tests.app.conftest import csrf_of, signup
from tests.conftest import FIXTURE_PROBLEMS
from tests.samples import VECTOR_ADD

PRINTS = VECTOR_ADD.replace(
    "def solve(a, b, c, n):\n", 'def solve(a, b, c, n):\n    print("hello from n =", n)\n'
)


class Sent(list[tuple[int, str]]):
    def __call__(self, run_id: int, kind: str) -> None:
        self.append((run_id, kind))


@pytest.fixture
def sent(client: TestClient) -> Sent:
    s = Sent()
    client.app.state.playground_enqueue = s  # type: ignore[attr-defined]
    return s


def _play(c: TestClient, csrf: str, **kw: Any) -> Any:
    body = {"language": "triton", "source": PRINTS, "params": {"n": 2}, "seed": 7, **kw}
    return c.post("/api/v1/problems/toy-add/playground", json=body, headers={"X-CSRF-Token": csrf})


def _count(engine: Engine, model: Any) -> int:
    with Session(engine) as s:
        return int(s.exec(select(func.count()).select_from(model)).one())


def test_queued_polled_and_never_a_submission(
    client: TestClient, sent: Sent, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    csrf = signup(client)
    r = _play(client, csrf)
    assert r.status_code == 201, r.text
    run = r.json()
    assert run["status"] == "queued" and run["request"]["params"] == {"n": 2}
    assert sent == [(run["id"], "cpu")]
    assert _count(engine, Submission) == 0

    # the worker's task, on this database
    from worker import playground, tasks

    monkeypatch.setattr(tasks, "engine", lambda: engine)
    monkeypatch.setenv("KERNELDOJO_PROBLEMS", str(FIXTURE_PROBLEMS))
    assert playground.run(run["id"]) is True
    assert playground.run(run["id"]) is False  # delivered twice: run once
    done = client.get(f"/api/v1/playground/{run['id']}").json()
    assert done["status"] == "done"
    res = done["result"]
    assert res["verdict"] == "accepted", res
    assert "hello from n = 2" in res["stdout"]
    out = res["playground"]["outputs"]["c"]
    assert len(out["got"]["values"]) == 2 and len(out["expected"]["values"]) == 2
    assert _count(engine, Submission) == 0
    assert client.get("/api/v1/submissions").json() == []

    # another learner cannot read it
    other = TestClient(client.app)
    signup(other, "bob")
    assert other.get(f"/api/v1/playground/{run['id']}").status_code == 404


def test_checked_before_queueing(client: TestClient, sent: Sent, engine: Engine) -> None:
    csrf = signup(client)
    r = _play(client, csrf, params={"n": 100000})
    assert r.status_code == 422 and "between 1 and 3" in r.json()["detail"]
    r = _play(client, csrf, literals={"a": "__import__('os')"})
    assert r.status_code == 422 and "numbers" in r.json()["detail"]
    assert _play(client, csrf, seed=-1).status_code == 422
    assert sent == [] and _count(engine, PlaygroundRun) == 0
    limits = client.get("/api/v1/problems/toy-add/playground/limits").json()
    assert limits["limits"] == {"n": 3} and limits["inputs"] == ["a", "b"]


def test_login_csrf_and_rate_limit(client: TestClient, sent: Sent) -> None:
    assert _play(client, "x").status_code == 401
    csrf = signup(client)
    assert _play(client, "wrong-token").status_code in (401, 403)
    for _ in range(5):  # SUBMISSIONS_PER_MINUTE in the tests' settings
        assert _play(client, csrf).status_code == 201
    r = _play(client, csrf)
    assert r.status_code == 429 and "a minute" in r.json()["detail"]
    assert csrf_of(client)


def test_a_run_whose_worker_stopped_is_reported_ended(
    client: TestClient, sent: Sent, engine: Engine
) -> None:
    from datetime import timedelta

    from app import playground
    from app.models import utcnow

    csrf = signup(client)
    run_id = _play(client, csrf).json()["id"]
    assert playground.claim(engine, run_id)
    assert client.get(f"/api/v1/playground/{run_id}").json()["status"] == "running"
    with Session(engine) as s:
        row = s.get(PlaygroundRun, run_id)
        assert row is not None
        row.created_at = utcnow() - playground.STALE - timedelta(seconds=1)
        s.add(row)
        s.commit()
    got = client.get(f"/api/v1/playground/{run_id}").json()
    assert got["status"] == "done" and "did not finish" in got["result"]["message"]


def test_the_page_and_a_gpu_kind(client: TestClient, sent: Sent) -> None:
    """The page offers each GPU kind with its own limits (a GPU's include the benchmark sizes);
    a run for a GPU goes to that kind's queue."""
    assert "Log in" in client.get("/problems/toy-add/playground").text
    csrf = signup(client)
    page = client.get("/problems/toy-add/playground").text
    assert 'id="pg-gpu"' in page and ">H100<" in page
    assert '"h100": {"n": 1048576}' in page and '"cpu": {"n": 3}' in page
    r = _play(client, csrf, params={"n": 1048576}, gpu_kind="h100")
    assert r.status_code == 201, r.text
    assert sent == [(r.json()["id"], "h100")]
    assert _play(client, csrf, gpu_kind="tpu").status_code == 422


def test_deleting_the_account_deletes_its_runs(
    client: TestClient, sent: Sent, engine: Engine
) -> None:
    from app import erase
    from app.models import User

    csrf = signup(client)
    assert _play(client, csrf).status_code == 201
    with Session(engine) as s:
        user = s.exec(select(User).where(User.username == "alice")).one()
        counts = erase.erase(s, user)
        s.commit()
    assert counts.get("playgroundrun") == 1, counts
    assert _count(engine, PlaygroundRun) == 0
