"""trust, round two (issue 36): assignmentproblem.languages, the languages whose submissions
count for an assignment's problem (comma-separated; empty: the kernel track's)

Revision ID: web_assignment_languages
Revises: web_drafts_email
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql import sqltypes

revision: str = "web_assignment_languages"
down_revision: str | None = "web_drafts_email"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Existing assignments get the default, the kernel track: PyTorch no longer counts there.
    with op.batch_alter_table("assignmentproblem", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "languages",
                sqltypes.AutoString(length=200),
                nullable=False,
                server_default="",
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("assignmentproblem", schema=None) as batch_op:
        batch_op.drop_column("languages")
