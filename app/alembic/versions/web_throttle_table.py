"""throttle: failed log-in, sign-up and invite-code attempts per key (issue 18.1)

Revision ID: web_throttle
Revises: 0001
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql import sqltypes

revision: str = "web_throttle"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "throttle",
        sa.Column("key", sqltypes.AutoString(length=200), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("last_failure_at", sqltypes.UTCDateTime(), nullable=False),
        sa.Column("locked_until", sqltypes.UTCDateTime(), nullable=True),
        sa.PrimaryKeyConstraint("key"),
    )


def downgrade() -> None:
    op.drop_table("throttle")
