"""Learners for the social tests: separate browsers on one app, admins, a result with figures."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.models import Submission, User
from tests.class_factories import judged, user_client

NOW = datetime.now(UTC).replace(microsecond=0)


def learner(client: TestClient, name: str, admin: bool = False) -> TestClient:
    """A browser of its own, signed up as ``name``; its CSRF token set as a default header."""
    c, csrf = user_client(client, name)
    c.headers["X-CSRF-Token"] = csrf
    if admin:
        with Session(client.app.state.engine) as s:  # type: ignore[attr-defined]
            u = s.exec(select(User).where(User.username == name)).one()
            u.is_admin = True
            s.add(u)
            s.commit()
    return c


def accepted(
    engine: Engine,
    name: str,
    score_ms: float | None = 0.5,
    sol_pcts: tuple[float, ...] = (40.0, 90.0),
    language: str = "triton",
    gpu_kind: str = "h100",
    verdict: str = "accepted",
) -> int:
    """A judged submission of ``name`` whose stored result has benchmark cases with these
    speed-of-light percents (their geometric mean is what pages show)."""
    sid = judged(
        engine, name, NOW, verdict=verdict, score_ms=score_ms, gpu_kind=gpu_kind, language=language
    )
    with Session(engine) as s:
        sub = s.get(Submission, sid)
        assert sub is not None
        sub.result_json = json.dumps(
            {
                "verdict": verdict,
                "benchmark": [
                    {
                        "name": f"case{i}",
                        "median_ms": score_ms,
                        "iqr_ms": 0.01,
                        "runs": 50,
                        "gbps": 1000.0,
                        "tflops": 0.1,
                        "sol_ms": (score_ms or 1.0) * p / 100,
                        "bound": "memory",
                        "sol_pct": p,
                    }
                    for i, p in enumerate(sol_pcts)
                ],
            }
        )
        s.add(sub)
        s.commit()
    return sid
