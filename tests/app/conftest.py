"""App fixtures: an engine per database kind, a TestClient whose queue is a recorder."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import SQLModel

from app.core.config import Settings
from app.core.db import make_engine
from app.main import create_app
from tests.conftest import FIXTURE_PROBLEMS


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    eng = make_engine(db_url)
    yield eng
    with eng.begin() as c:  # empty every table: each test starts from a blank database
        for t in reversed(SQLModel.metadata.sorted_tables):
            c.execute(t.delete())
    eng.dispose()


@pytest.fixture
def settings(db_url: str, engine: Engine) -> Settings:
    return Settings(
        ENVIRONMENT="test",
        SECRET_KEY="t" * 40,
        DATABASE_URL=db_url,
        PROBLEMS_DIR=FIXTURE_PROBLEMS,
        GPU_KINDS=["cpu", "h100"],
        SUBMISSIONS_PER_MINUTE=5,
        MAX_SOURCE_BYTES=2000,
        SWEEP_EVERY_S=3600,
    )


class Queue(list[tuple[int, str]]):
    """The app's enqueue, recorded: (id, GPU kind) in order, each id's mode, and the ids sent
    again by the sweeper (``requeued``)."""

    def __init__(self) -> None:
        super().__init__()
        self.modes: dict[int, str] = {}
        self.requeued: list[int] = []

    def __call__(self, sub_id: int, kind: str, mode: str, requeued: bool = False) -> None:
        self.append((sub_id, kind))
        self.modes[sub_id] = mode
        if requeued:
            self.requeued.append(sub_id)


@pytest.fixture
def queue() -> Queue:
    return Queue()


@pytest.fixture
def client(settings: Settings, queue: Queue) -> Iterator[TestClient]:
    with TestClient(create_app(settings, enqueue=queue)) as c:
        yield c


def csrf_of(c: TestClient, path: str = "/problems") -> str:
    m = re.search(r'name="csrf-token" content="([^"]+)"', c.get(path).text)
    assert m
    return m.group(1)


def signup(c: TestClient, username: str = "alice", password: str = "kernel-dojo-pass") -> str:
    """Sign up through the JSON API; returns the CSRF token for later cookie-authenticated writes."""
    r = c.post("/api/v1/auth/signup", json={"username": username, "password": password})
    assert r.status_code == 201, r.text
    return csrf_of(c)
