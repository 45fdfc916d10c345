"""The web_social migration (issue 40): up from the schema before it, with a user's rows kept,
its tables equal to the models (alembic's own comparison), down again and up; on SQLite and
PostgreSQL. Also: the API's operations are in the OpenAPI document under their tags."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from fastapi.testclient import TestClient
from sqlmodel import SQLModel

from app.core.db import ALEMBIC_INI, make_engine
from app.social import models  # noqa: F401  (the tables compared)
from tests.conftest import PG_URL

BEFORE = "web_playground"
TABLES = {
    "publishedsolution", "solutionvote", "editorialopened", "comment", "commentvote",
    "threadlock", "notification",
}  # fmt: skip


@pytest.fixture(params=["sqlite", "postgresql"])
def blank_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('mig') / 'm.db'}"
        return
    schema = f"kd_social_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(PG_URL)
    with admin.begin() as c:
        c.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield f"{PG_URL}?options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as c:
            c.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def _config(url: str) -> Config:
    cfg = Config(str(ALEMBIC_INI))
    cfg.set_main_option("script_location", str(ALEMBIC_INI.parent / "app" / "alembic"))
    cfg.attributes["database_url"] = url
    return cfg


def test_up_down_and_up_again_matching_the_models(blank_url: str) -> None:
    cfg = _config(blank_url)
    command.upgrade(cfg, BEFORE)
    engine = make_engine(blank_url)
    with engine.begin() as c:
        c.execute(
            sa.text(
                'INSERT INTO "user" (username, password_hash, is_admin, is_instructor, created_at)'
                " VALUES ('ada', 'x', false, false, CURRENT_TIMESTAMP)"
            )
        )
    command.upgrade(cfg, "web_social")
    assert set(sa.inspect(engine).get_table_names()) >= TABLES
    with engine.connect() as c:
        diff = compare_metadata(MigrationContext.configure(c), SQLModel.metadata)
        assert [d for d in diff if any(t in repr(d) for t in TABLES)] == []
        assert c.execute(sa.text('SELECT username FROM "user"')).scalars().all() == ["ada"]
    command.downgrade(cfg, BEFORE)
    assert not TABLES & set(sa.inspect(engine).get_table_names())
    command.upgrade(cfg, "head")
    assert set(sa.inspect(engine).get_table_names()) >= TABLES
    engine.dispose()


def test_the_operations_are_documented_under_their_tags(client: TestClient) -> None:
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    expected = {
        ("get", "/api/v1/problems/{slug}/solutions"): "solutions",
        ("post", "/api/v1/solutions"): "solutions",
        ("delete", "/api/v1/solutions/{sol_id}"): "solutions",
        ("put", "/api/v1/admin/solutions/{sol_id}/hidden"): "solutions",
        ("post", "/api/v1/problems/{slug}/comments"): "discussions",
        ("put", "/api/v1/admin/threads/{thread}/locked"): "discussions",
        ("get", "/api/v1/notifications"): "notifications",
    }
    for (method, path), tag in expected.items():
        assert paths[path][method]["tags"] == [tag], (method, path)
