"""A re-queued submission goes ahead of new ones (issue 36), on the real Redis broker: the
sweeper re-sends a row whose worker died at the re-queue priority, and the broker hands it out
before the submissions queued after it was first sent."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from functools import partial

import pytest
import redis
from celery import Celery
from sqlalchemy.engine import Engine

from app import queue, submissions
from app.core.config import Settings
from tests.conftest import REDIS_URL
from tests.factories import submission

KIND = "cpu"


@pytest.fixture
def broker(settings: Settings) -> Iterator[Celery]:
    prefix = f"kdtest-{uuid.uuid4().hex[:8]}:"
    app = queue.make_celery(
        settings.model_copy(update={"REDIS_URL": REDIS_URL, "REDIS_PREFIX": prefix})
    )
    yield app
    app.close()
    r = redis.Redis.from_url(REDIS_URL)
    keys = list(r.scan_iter(f"{prefix}*"))
    if keys:
        r.delete(*keys)


def _taken_order(app: Celery, n: int) -> list[int]:
    """The submission ids in the order a worker gets them (kombu reads the priority lists in
    order, as the worker's BRPOP does)."""
    out = []
    with app.connection_for_read() as conn:
        channel = conn.default_channel
        for _ in range(n):
            message = channel.basic_get(KIND, no_ack=True)
            assert message is not None
            args = message.decode()[0]
            out.append(int(args[0]))
    return out


def test_a_requeued_submission_is_taken_before_newer_ones(engine: Engine, broker: Celery) -> None:
    send = partial(queue.send_to, broker)
    dead = submission(engine, "u0")
    send(dead, KIND, "submit")
    assert submissions.claim(engine, dead, "gone/1", stale_s=60)  # its worker then died
    _taken_order(broker, 1)  # that message was taken by the dead worker
    newer = [submission(engine, f"u{i}") for i in range(1, 4)]
    for sid in newer:
        send(sid, KIND, "submit")
    profile = submission(engine, "u9")
    send(profile, KIND, "profile")
    time.sleep(0.05)
    assert submissions.sweep(engine, 0.01, send, resend_after_s=3600) == [dead]
    assert _taken_order(broker, 5) == [dead, *newer, profile]
    assert queue.priority("submit", requeued=True) < queue.priority("submit")
    assert queue.priority("profile", requeued=True) < queue.priority("profile")
