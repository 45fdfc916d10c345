"""submission.tries: claims since a person last queued it, for the retry cap (issue 18.13)

Revision ID: web_tries
Revises: web_sessions
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "web_tries"
down_revision: str | None = "web_sessions"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("submission") as batch:
        batch.add_column(sa.Column("tries", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("submission") as batch:
        batch.drop_column("tries")
