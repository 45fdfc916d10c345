"""Shared test helpers: free ports, the databases (SQLite and PostgreSQL), the repo root."""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURE_PROBLEMS = ROOT / "tests" / "fixtures" / "problems"
PG_URL = os.environ.get("KERNELDOJO_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("KERNELDOJO_TEST_REDIS", "redis://127.0.0.1:6379/0")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A migrated, empty database of each kind; PostgreSQL gets a fresh schema per session."""
    from app.core.db import migrate

    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'test.db'}"
        migrate(url)
        yield url
        return
    import sqlalchemy as sa

    schema = f"kd_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(PG_URL)
    with admin.begin() as c:
        c.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    url = f"{PG_URL}?options=-csearch_path%3D{schema}"
    try:
        migrate(url)
        yield url
    finally:
        with admin.begin() as c:
            c.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
