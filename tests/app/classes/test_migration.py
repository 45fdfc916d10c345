"""The class-mode migration upgrades a database of the previous schema, with its rows, on
SQLite and PostgreSQL, and downgrades back."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from app.core.db import ALEMBIC_INI, make_engine
from tests.conftest import PG_URL

BEFORE = "web_usernames"  # the schema before class mode
TABLES = {"course", "coursemember", "assignment", "assignmentproblem", "editorialrun"}


@pytest.fixture(params=["sqlite", "postgresql"])
def blank_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('mig') / 'm.db'}"
        return
    schema = f"kd_mig_{uuid.uuid4().hex[:8]}"
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


def test_upgrade_from_the_previous_schema_keeps_users(blank_url: str) -> None:
    cfg = _config(blank_url)
    command.upgrade(cfg, BEFORE)
    engine = make_engine(blank_url)
    with engine.begin() as c:
        c.execute(
            sa.text(
                'INSERT INTO "user" (username, password_hash, is_admin, created_at) '
                "VALUES ('old-prof', 'h', true, CURRENT_TIMESTAMP), ('old-kid', 'h', false, CURRENT_TIMESTAMP)"
            )
        )
    assert not TABLES & set(sa.inspect(engine).get_table_names())

    command.upgrade(cfg, "web_classes")
    insp = sa.inspect(engine)
    assert set(insp.get_table_names()) >= TABLES
    with engine.begin() as c:
        rows = c.execute(
            sa.text('SELECT username, is_instructor FROM "user" ORDER BY username')
        ).all()
        assert [(r[0], bool(r[1])) for r in rows] == [("old-kid", False), ("old-prof", False)]
        uid = c.execute(sa.text("SELECT id FROM \"user\" WHERE username = 'old-prof'")).scalar_one()
        c.execute(
            sa.text(
                "INSERT INTO course (name, term, invite_code, gpu_kind, created_by, created_at) "
                "VALUES ('C', '', 'abcd-efgh-jkmn-pqrs', 'cpu', :u, CURRENT_TIMESTAMP)"
            ),
            {"u": uid},
        )
    with engine.begin() as c, pytest.raises(sa.exc.IntegrityError):  # invite codes are unique
        c.execute(
            sa.text(
                "INSERT INTO course (name, term, invite_code, gpu_kind, created_by, created_at) "
                "VALUES ('D', '', 'abcd-efgh-jkmn-pqrs', 'cpu', :u, CURRENT_TIMESTAMP)"
            ),
            {"u": uid},
        )

    command.downgrade(cfg, BEFORE)
    insp = sa.inspect(engine)
    assert not TABLES & set(insp.get_table_names())
    assert "is_instructor" not in {col["name"] for col in insp.get_columns("user")}
    engine.dispose()


def test_assignment_languages_upgrade_keeps_problems_on_the_kernel_track(blank_url: str) -> None:
    """web_assignment_languages (issue 36): existing assignment problems get no named
    languages, which means the kernel track; and the downgrade drops the column."""
    cfg = _config(blank_url)
    command.upgrade(cfg, "web_drafts_email")
    engine = make_engine(blank_url)
    with engine.begin() as c:
        c.execute(
            sa.text(
                'INSERT INTO "user" (username, password_hash, is_admin, is_instructor, created_at) '
                "VALUES ('prof', 'h', false, true, CURRENT_TIMESTAMP)"
            )
        )
        c.execute(
            sa.text(
                "INSERT INTO course (name, term, invite_code, gpu_kind, created_by, created_at) "
                "SELECT 'C', '', 'abcd', 'h100', id, CURRENT_TIMESTAMP FROM \"user\""
            )
        )
        c.execute(
            sa.text(
                "INSERT INTO assignment (course_id, title, opens_at, due_at, late_factor, "
                "timezone, created_at) SELECT id, 'w1', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, "
                "1.0, 'UTC', CURRENT_TIMESTAMP FROM course"
            )
        )
        c.execute(
            sa.text(
                "INSERT INTO assignmentproblem (assignment_id, problem, rule, points, position) "
                "SELECT id, 'vector-add', 'speed', 10, 0 FROM assignment"
            )
        )
    command.upgrade(cfg, "web_assignment_languages")
    with engine.begin() as c:
        got = c.execute(sa.text("SELECT problem, languages FROM assignmentproblem")).all()
    assert [tuple(r) for r in got] == [("vector-add", "")]
    command.downgrade(cfg, "web_drafts_email")
    insp = sa.inspect(engine)
    assert "languages" not in {col["name"] for col in insp.get_columns("assignmentproblem")}
    engine.dispose()
