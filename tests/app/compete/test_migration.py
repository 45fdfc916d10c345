"""The web_contests migration (issue 40): up from web_social keeping a user's row, its tables
equal to the models (alembic's own comparison), down and up again, on SQLite and PostgreSQL;
the one head. Also: the API's operations are in the OpenAPI document under their tags."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient
from sqlmodel import SQLModel

from app.compete import models  # noqa: F401  (the tables compared)
from app.core.db import make_engine
from tests.app.social.test_migration import _config, blank_url  # noqa: F401  (the fixture)

BEFORE = "web_social"
TABLES = {"ratingpoint", "contest", "contestproblem", "contestentry", "contestrerun"}


def test_up_down_and_up_again_matching_the_models(blank_url: str) -> None:  # noqa: F811
    cfg = _config(blank_url)
    assert ScriptDirectory.from_config(cfg).get_heads() == ["web_contests"]
    command.upgrade(cfg, BEFORE)
    engine = make_engine(blank_url)
    with engine.begin() as c:
        c.execute(
            sa.text(
                'INSERT INTO "user" (username, password_hash, is_admin, is_instructor, created_at)'
                " VALUES ('ada', 'x', false, false, CURRENT_TIMESTAMP)"
            )
        )
    command.upgrade(cfg, "web_contests")
    assert set(sa.inspect(engine).get_table_names()) >= TABLES
    with engine.connect() as c:
        diff = compare_metadata(MigrationContext.configure(c), SQLModel.metadata)
        assert [d for d in diff if any(f"'{t}'" in repr(d) for t in TABLES)] == []
        assert c.execute(sa.text('SELECT username FROM "user"')).scalars().all() == ["ada"]
    command.downgrade(cfg, BEFORE)
    assert not TABLES & set(sa.inspect(engine).get_table_names())
    command.upgrade(cfg, "head")
    assert set(sa.inspect(engine).get_table_names()) >= TABLES
    engine.dispose()


def test_the_operations_are_documented_under_their_tags(client: TestClient) -> None:
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    expected = {
        ("get", "/api/v1/contests"): "contests",
        ("post", "/api/v1/contests"): "contests",
        ("get", "/api/v1/contests/{contest_id}"): "contests",
        ("post", "/api/v1/contests/{contest_id}/join"): "contests",
        ("get", "/api/v1/contests/{contest_id}/standings"): "contests",
        ("get", "/api/v1/contests/{contest_id}/events"): "contests",
        ("get", "/api/v1/rating"): "rating",
        ("get", "/api/v1/users/{username}/rating"): "rating",
    }
    for (method, path), tag in expected.items():
        op = paths[path][method]
        assert op["tags"] == [tag] and op["summary"] and op["description"], (method, path)
