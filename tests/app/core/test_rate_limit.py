"""The per-minute submission limit holds under concurrent requests (issue 18, point 12)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, func, select

from app.core.config import Settings
from app.models import Submission
from tests.app.conftest import signup

GOOD = "import triton\n\ndef solve(a, b, c, n):\n    pass\n"


def test_concurrent_submissions_never_exceed_the_limit(
    client: TestClient, engine: Engine, settings: Settings
) -> None:
    csrf = signup(client)
    limit = settings.SUBMISSIONS_PER_MINUTE
    n = 30
    start = threading.Barrier(n)
    body = {"problem": "toy-add", "language": "triton", "source": GOOD}

    def post(_: int) -> int:
        start.wait()
        r = client.post("/api/v1/submissions", json=body, headers={"X-CSRF-Token": csrf})
        return r.status_code

    with ThreadPoolExecutor(n) as pool:
        codes = list(pool.map(post, range(n)))
    assert sorted(codes) == [201] * limit + [429] * (n - limit)
    with Session(engine) as s:
        assert s.exec(select(func.count()).select_from(Submission)).one() == limit
