"""the playground (issue 37): playgroundrun, a learner's run on a case they chose, kept a day

Revision ID: web_playground
Revises: web_worker_reports
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql import sqltypes

revision: str = "web_playground"
down_revision: str | None = "web_worker_reports"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "playgroundrun",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("problem", sqltypes.AutoString(length=64), nullable=False),
        sa.Column("language", sqltypes.AutoString(length=16), nullable=False),
        sa.Column("gpu_kind", sqltypes.AutoString(length=32), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("request_json", sa.Text(), nullable=False),
        sa.Column("status", sqltypes.AutoString(length=8), nullable=False),
        sa.Column("stage", sqltypes.AutoString(length=32), nullable=False),
        sa.Column("result_json", sa.Text(), nullable=True),
        sa.Column("created_at", sqltypes.UTCDateTime(), nullable=False),
        sa.Column("finished_at", sqltypes.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("playgroundrun", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_playgroundrun_user_id"), ["user_id"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_playgroundrun_created_at"), ["created_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("playgroundrun", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_playgroundrun_created_at"))
        batch_op.drop_index(batch_op.f("ix_playgroundrun_user_id"))
    op.drop_table("playgroundrun")
