"""The rating's formula (docs/rating.md) on a small history computed by hand, and its upkeep:
a history point each time a recorded acceptance moves a learner's rating; the board's filters;
the API and the profile's chart. On SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app import submissions
from app.compete import rating
from app.compete.rating import Result
from app.models import SubmissionCreate, User

DIFF = {"vector-add": "easy", "softmax": "medium", "matmul": "hard", "toy-add": "easy"}


def test_speed_percentile_counts_slower_others_and_half_the_ties() -> None:
    assert rating.speed_percentile(1.0, [1.0]) == 1.0  # alone on a board
    assert rating.speed_percentile(1.0, [1.0, 2.0, 3.0]) == 1.0
    assert rating.speed_percentile(3.0, [1.0, 2.0, 3.0]) == 0.0
    assert rating.speed_percentile(2.0, [1.0, 2.0, 2.0, 4.0]) == pytest.approx((1 + 0.5) / 3)
    assert rating.speed_percentile(None, [None, None]) == 0.5  # untimed


def test_the_worked_example_of_docs_rating_md() -> None:
    """docs/rating.md's example, step by step."""
    h = "h100"
    steps = [
        # 1. ada solves vector-add alone: 100 x (1 + 1) / 2 = 100.
        ([Result(1, "vector-add", h, "kernel", 0.020)], {1: 1100.0}),
        # 2. bo solves it faster: bo s = 1 -> 100; ada s = 0 -> 50.
        (
            [
                Result(1, "vector-add", h, "kernel", 0.020),
                Result(2, "vector-add", h, "kernel", 0.010),
            ],
            {1: 1050.0, 2: 1100.0},
        ),
        # 3. ada solves softmax (medium) alone: +200; cy solves vector-add in PyTorch: the
        #    framework board is cy's alone: 100 x 1/2 x 1 = 50. ada's kernel-track points stand.
        (
            [
                Result(1, "vector-add", h, "kernel", 0.020),
                Result(2, "vector-add", h, "kernel", 0.010),
                Result(1, "softmax", h, "kernel", 0.300),
                Result(3, "vector-add", h, "framework", 0.015),
            ],
            {1: 1250.0, 2: 1100.0, 3: 1050.0},
        ),
        # 4. cy solves matmul (hard) on the CPU interpreter, untimed: 300 x (1 + 1/2) / 2 = 225;
        #    bo ties ada's softmax time: both s = 1/2 -> 150 each.
        (
            [
                Result(1, "vector-add", h, "kernel", 0.020),
                Result(2, "vector-add", h, "kernel", 0.010),
                Result(1, "softmax", h, "kernel", 0.300),
                Result(3, "vector-add", h, "framework", 0.015),
                Result(3, "matmul", "cpu", "kernel", None),
                Result(2, "softmax", h, "kernel", 0.300),
            ],
            {1: 1200.0, 2: 1250.0, 3: 1275.0},
        ),
    ]
    for results, expected in steps:
        got = {uid: r for uid, (r, _) in rating.ratings(results, DIFF).items()}
        assert got == pytest.approx(expected)


def test_a_problem_counts_once_at_its_best_board() -> None:
    results = [
        Result(1, "toy-add", "h100", "kernel", 2.0),
        Result(2, "toy-add", "h100", "kernel", 1.0),  # ada is the slower on the H100: 50
        Result(1, "toy-add", "cpu", "kernel", None),  # and untimed on the CPU: 75
    ]
    got = rating.ratings(results, DIFF)
    assert got[1] == (pytest.approx(1075.0), 1)


def _user(engine: Engine, name: str) -> User:
    with Session(engine) as s:
        u = s.exec(select(User).where(User.username == name)).first()
        if u is None:
            u = User(username=name, password_hash="x")
            s.add(u)
            s.commit()
            s.refresh(u)
        return u


def _graded(engine: Engine, name: str, score_ms: float | None, kind: str = "h100",
            language: str = "triton", verdict: str = "accepted") -> int:  # fmt: skip
    """A submission of ``name`` created, claimed and recorded as a worker does."""
    with Session(engine) as s:
        sub = submissions.create(
            s,
            _user(engine, name),
            SubmissionCreate(problem="toy-add", language=language, source="x"),
            kind,
        )
        sid = sub.id
    assert sid is not None
    attempt = submissions.claim(engine, sid, "w", stale_s=60)
    assert attempt is not None
    submissions.record(engine, sid, attempt, {"verdict": verdict, "score_ms": score_ms})
    return sid


def _history(engine: Engine, name: str) -> list[float]:
    with Session(engine) as s:
        return [r for _, r in rating.history(s, _user(engine, name).id or 0)]


def test_recorded_acceptances_store_the_history(engine: Engine) -> None:
    d = {"toy-add": "easy"}
    _graded(engine, "ada", 2.0)
    rating.after_record(engine, 0, d)  # an unknown id: nothing, no error
    with Session(engine) as s:
        rating.recompute(s, d)
    assert _history(engine, "ada") == [1100.0]
    _graded(engine, "bo", 1.0, verdict="wrong_answer")
    assert _history(engine, "bo") == []
    bo = _graded(engine, "bo", 1.0)
    rating.after_record(engine, bo, d)
    assert _history(engine, "ada") == [1100.0, 1050.0]  # beaten: the slower of two
    assert _history(engine, "bo") == [1100.0]
    with Session(engine) as s:
        rows = rating.board(s, d)
        assert [(r.rank, r.username, r.rating) for r in rows] == [
            (1, "bo", 1100.0),
            (2, "ada", 1050.0),
        ]
        assert [r.username for r in rating.board(s, d, gpu_kind="cpu")] == []
        assert [r.username for r in rating.board(s, d, language="cuda")] == []
        assert len(rating.board(s, d, language="triton", gpu_kind="h100")) == 2


def test_api_board_filters_and_profile_chart(client: TestClient, engine: Engine) -> None:
    _graded(engine, "ada", 2.0)
    _graded(engine, "bo", None, kind="cpu")
    board = client.get("/api/v1/rating").json()
    assert [(r["username"], r["rating"]) for r in board] == [("ada", 1100.0), ("bo", 1075.0)]
    assert [r["username"] for r in client.get("/api/v1/rating?gpu=cpu").json()] == ["bo"]
    assert client.get("/api/v1/rating?language=cuda").json() == []
    bad = client.get("/api/v1/rating?language=fortran")
    assert bad.status_code == 422 and "unknown language 'fortran'" in bad.json()["detail"]
    assert client.get("/api/v1/rating?gpu=tpu").status_code == 422
    mine = client.get("/api/v1/users/ada/rating").json()
    assert mine["rating"] == 1100.0 and [p["rating"] for p in mine["history"]] == [1100.0]
    assert client.get("/api/v1/users/nobody/rating").status_code == 404
    page = client.get("/rating?gpu=cpu").text
    assert "bo" in page and ">ada<" not in page
    profile = client.get("/users/ada").text
    assert 'id="rating-history"' in profile and "1100 now" in profile
