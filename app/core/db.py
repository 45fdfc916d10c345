"""Database engine and migrations (Alembic) for SQLite or PostgreSQL."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlmodel import create_engine

from app.core.inputs import guard_engine

log = logging.getLogger(__name__)
# The database unreachable rather than a query gone wrong: refused or cut connections, SQLite
# locked past its busy timeout, no pooled connection free in time. Answered 503 (pages/errors).
UNAVAILABLE = (OperationalError, InterfaceError, PoolTimeout)
ALEMBIC_INI = Path(__file__).resolve().parents[2] / "alembic.ini"


def make_engine(url: str, pool_size: int | None = None, max_overflow: int | None = None) -> Engine:
    """An engine; SQLite gets WAL and a busy timeout so the worker and web can share it.

    ``pool_size`` / ``max_overflow`` (PostgreSQL): the web app passes DB_POOL_SIZE and
    DB_MAX_OVERFLOW so that every thread of its pool can hold a connection (see config.py).
    """
    kwargs: dict[str, Any] = {"pool_pre_ping": True}
    if not url.startswith("sqlite"):
        if pool_size is not None:
            kwargs["pool_size"] = pool_size
        if max_overflow is not None:
            kwargs["max_overflow"] = max_overflow
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    engine = create_engine(url, **kwargs)
    guard_engine(engine)  # NUL, unpaired surrogates, ints beyond 64 bits: BadInput, not a 500
    if url.startswith("sqlite"):
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def migrate(url: str) -> None:
    """Bring the schema up to date (``alembic upgrade head``)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config(str(ALEMBIC_INI))
    cfg.set_main_option("script_location", str(ALEMBIC_INI.parent / "app" / "alembic"))
    cfg.attributes["database_url"] = url
    log.info("migrating database")
    command.upgrade(cfg, "head")
