"""apitoken.scopes and apitoken.expires_at (issue 18.9)

Existing tokens get read and submit, not admin: an admin creates an admin-scoped token anew.

Revision ID: web_token_scopes
Revises: web_tries
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql import sqltypes

revision: str = "web_token_scopes"
down_revision: str | None = "web_tries"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("apitoken", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "scopes",
                sqltypes.AutoString(length=64),
                nullable=False,
                server_default="read,submit",
            )
        )
        batch_op.add_column(sa.Column("expires_at", sqltypes.UTCDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("apitoken", schema=None) as batch_op:
        batch_op.drop_column("expires_at")
        batch_op.drop_column("scopes")
