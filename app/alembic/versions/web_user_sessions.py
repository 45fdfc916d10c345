"""usersession: server-side session records, so log-out revokes a cookie (issue 18.8)

Revision ID: web_sessions
Revises: web_throttle
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql import sqltypes

revision: str = "web_sessions"
down_revision: str | None = "web_throttle"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "usersession",
        sa.Column("id", sqltypes.AutoString(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sqltypes.UTCDateTime(), nullable=False),
        sa.Column("expires_at", sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("usersession", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_usersession_user_id"), ["user_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("usersession", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_usersession_user_id"))
    op.drop_table("usersession")
