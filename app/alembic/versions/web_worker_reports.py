"""the judge on any GPU host (issue 41): workerreport, each worker's environment and its
languages' self-test, from which the app tells which languages its workers can grade

Revision ID: web_worker_reports
Revises: web_assignment_languages
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql import sqltypes

revision: str = "web_worker_reports"
down_revision: str | None = "web_assignment_languages"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "workerreport",
        sa.Column("name", sqltypes.AutoString(length=200), nullable=False),
        sa.Column("gpu_kind", sqltypes.AutoString(length=32), nullable=False),
        sa.Column("environment_json", sa.Text(), nullable=False),
        sa.Column("languages_json", sa.Text(), nullable=False),
        sa.Column("started_at", sqltypes.UTCDateTime(), nullable=False),
        sa.Column("checked_at", sqltypes.UTCDateTime(), nullable=True),
        sa.Column("seen_at", sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    with op.batch_alter_table("workerreport", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_workerreport_gpu_kind"), ["gpu_kind"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("workerreport", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_workerreport_gpu_kind"))
    op.drop_table("workerreport")
