"""Live-progress streams are capped per client and in total, and end after a time limit
(issue 18, point 11); the page then polls."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.core.config import Settings
from app.main import create_app
from app.streams import StreamSlots
from tests.app.conftest import Queue, signup

GOOD = "import triton\n\ndef solve(a, b, c, n):\n    pass\n"


def test_slots_cap_per_client_and_in_total() -> None:
    s = StreamSlots(total=3, per_client=2)
    assert s.acquire("a") is None and s.acquire("a") is None
    assert "per client" in (s.acquire("a") or "")
    assert s.acquire("b") is None
    assert "3 live streams" in (s.acquire("c") or "")
    s.release("a")
    assert s.acquire("c") is None and s.open_count() == 3


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
        assert slots.acquire("testclient") is None and slots.acquire("testclient") is None
        r = c.get(f"/api/v1/submissions/{sid}/events")
        assert r.status_code == 429 and r.headers["retry-after"] == "10"
        assert "poll" in r.json()["detail"]
        # Polling the submission still works.
        assert c.get(f"/api/v1/submissions/{sid}").json()["status"] == "queued"
