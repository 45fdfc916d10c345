"""Alembic environment: the URL is passed in by ``app.core.db.migrate`` or read from Settings."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

from app import models  # noqa: F401  (registers the tables)
from app.classes import models as class_models  # noqa: F401  (class mode's tables)
from app.compete import models as compete_models  # noqa: F401  (issue 40: rating, contests)
from app.core.config import get_settings
from app.core.db import make_engine
from app.social import models as social_models  # noqa: F401  (issue 40: solutions, discussions)

config = context.config
url = config.attributes.get("database_url") or get_settings().database_url
target_metadata = SQLModel.metadata


def run_migrations_offline() -> None:
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=url.startswith("sqlite"),
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    engine = make_engine(url)
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=url.startswith("sqlite"),
        )
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
