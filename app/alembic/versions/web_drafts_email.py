"""learner's first hour (issue 23): user.email (optional, for e-mailed password resets) and
draft (editor code per user, problem and language, kept on the server)

Revision ID: web_drafts_email
Revises: web_classes
Create Date: 2026-11-25
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql import sqltypes

revision: str = "web_drafts_email"
down_revision: str | None = "web_classes"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("user", schema=None) as batch_op:
        batch_op.add_column(sa.Column("email", sqltypes.AutoString(length=254), nullable=True))
        batch_op.create_index(batch_op.f("ix_user_email"), ["email"], unique=False)
    op.create_table(
        "draft",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("problem", sqltypes.AutoString(length=64), nullable=False),
        sa.Column("language", sqltypes.AutoString(length=16), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("updated_at", sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"]),
        sa.PrimaryKeyConstraint("user_id", "problem", "language"),
    )


def downgrade() -> None:
    op.drop_table("draft")
    with op.batch_alter_table("user", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_user_email"))
        batch_op.drop_column("email")
