"""Live-progress streams are capped per client and in total, and end after a time limit
(issue 18, point 11); the page then polls. Issue 36: only logged-in viewers get a stream, a
submission has at most SSE_MAX_PER_SUBMISSION of them, and its streams share one database
read per poll interval."""

from __future__ import annotations

import asyncio
import threading

from fastapi.testclient import TestClient

from app.core.config import Settings
from app.main import create_app
from app.streams import SharedPoll, StreamSlots
from tests.app.conftest import Queue, signup

GOOD = "import triton\n\ndef solve(a, b, c, n):\n    pass\n"


def test_slots_cap_per_client_and_in_total() -> None:
    s = StreamSlots(total=3, per_client=2, per_submission=10)
    assert s.acquire("a", 1) is None and s.acquire("a", 1) is None
    assert "per client" in (s.acquire("a", 1) or "")
    assert s.acquire("b", 1) is None
    assert "3 live streams" in (s.acquire("c", 1) or "")
    s.release("a", 1)
    assert s.acquire("c", 1) is None and s.open_count() == 3


def test_slots_cap_per_submission() -> None:
    s = StreamSlots(total=100, per_client=4, per_submission=2)
    assert s.acquire("a", 7) is None and s.acquire("b", 7) is None
    assert "this submission" in (s.acquire("c", 7) or "")
    assert s.acquire("c", 8) is None  # another submission is not affected
    s.release("a", 7)
    assert s.acquire("c", 7) is None


def test_streams_of_one_submission_share_one_read_per_interval() -> None:
    reads: list[int] = []
    lock = threading.Lock()

    def fetch(key: int) -> dict[str, int]:
        with lock:
            reads.append(key)
        return {"n": len(reads)}

    poll = SharedPoll(fetch, interval=0.05)

    async def watcher(key: int) -> None:
        poll.join(key)
        try:
            for _ in range(10):  # ~0.5 s of polling, like a stream every POLL_S
                assert (await poll.get(key))["n"] >= 1
                await asyncio.sleep(0.05)
        finally:
            poll.leave(key)

    async def main() -> None:
        await asyncio.gather(*(watcher(1) for _ in range(50)), watcher(2))

    asyncio.run(main())
    # 51 streams for ~0.5 s at 0.05 s: one reader per submission and interval (~11 each),
    # not one per stream (~500).
    assert 5 <= reads.count(1) <= 25 and reads.count(2) <= 25
    assert poll.watched() == 0  # nothing kept once the streams are gone


def test_anonymous_viewers_get_no_stream(client: TestClient) -> None:
    csrf = signup(client)
    body = {"problem": "toy-add", "language": "triton", "source": GOOD}
    sid = client.post("/api/v1/submissions", json=body, headers={"X-CSRF-Token": csrf}).json()["id"]
    r = TestClient(client.app).get(f"/api/v1/submissions/{sid}/events")
    assert r.status_code == 401 and "poll" in r.json()["detail"]
    assert TestClient(client.app).get(f"/api/v1/submissions/{sid}").status_code == 200


def test_a_submission_has_at_most_its_cap_of_streams(settings: Settings, queue: Queue) -> None:
    s = settings.model_copy(update={"SSE_MAX_PER_SUBMISSION": 1, "SSE_MAX_S": 0.3})
    app = create_app(s, enqueue=queue)
    with TestClient(app) as c:
        csrf = signup(c)
        body = {"problem": "toy-add", "language": "triton", "source": GOOD}
        sid = c.post("/api/v1/submissions", json=body, headers={"X-CSRF-Token": csrf}).json()["id"]
        slots: StreamSlots = app.state.streams
        assert slots.acquire("elsewhere", sid) is None  # one stream of it is open elsewhere
        r = c.get(f"/api/v1/submissions/{sid}/events")
        assert r.status_code == 429 and "this submission" in r.json()["detail"]


def test_streams_over_the_cap_are_refused_and_long_ones_end(
    settings: Settings, queue: Queue
) -> None:
    s = settings.model_copy(update={"SSE_MAX_PER_CLIENT": 2, "SSE_MAX_S": 0.3})
    app = create_app(s, enqueue=queue)
    with TestClient(app) as c:
        csrf = signup(c)
        body = {"problem": "toy-add", "language": "triton", "source": GOOD}
        sid = c.post("/api/v1/submissions", json=body, headers={"X-CSRF-Token": csrf}).json()["id"]
        # A queued submission's stream ends after SSE_MAX_S with a `timeout` event, and frees
        # its slot.
        r = c.get(f"/api/v1/submissions/{sid}/events")
        assert r.status_code == 200 and "event: timeout" in r.text
        assert app.state.streams.open_count() == 0
        # Two streams of this client are open elsewhere: a third is refused.
        slots: StreamSlots = app.state.streams
        assert slots.acquire("testclient", 0) is None and slots.acquire("testclient", 0) is None
        r = c.get(f"/api/v1/submissions/{sid}/events")
        assert r.status_code == 429 and r.headers["retry-after"] == "10"
        assert "poll" in r.json()["detail"]
        # Polling the submission still works.
        assert c.get(f"/api/v1/submissions/{sid}").json()["status"] == "queued"
