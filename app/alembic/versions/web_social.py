"""learners learn from each other (issue 40): published solutions and their votes, editorial
openings (giving up), discussion comments, their votes and thread locks, notifications

Revision ID: web_social
Revises: web_playground
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql import sqltypes

revision: str = "web_social"
down_revision: str | None = "web_playground"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEXES = {
    "publishedsolution": ("user_id", "problem"),
    "comment": ("thread", "user_id", "parent_id", "created_at"),
    "notification": ("user_id", "created_at"),
}


def upgrade() -> None:
    op.create_table(
        "publishedsolution",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("submission_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("problem", sqltypes.AutoString(length=64), nullable=False),
        sa.Column("title", sqltypes.AutoString(length=120), nullable=False),
        sa.Column("writeup", sa.Text(), nullable=False),
        sa.Column("published", sa.Boolean(), nullable=False),
        sa.Column("hidden", sa.Boolean(), nullable=False),
        sa.Column("created_at", sqltypes.UTCDateTime(), nullable=False),
        sa.Column("updated_at", sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["submission_id"], ["submission.id"]),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("submission_id"),
    )
    op.create_table(
        "solutionvote",
        sa.Column("solution_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"]),
        sa.PrimaryKeyConstraint("solution_id", "user_id"),
    )
    op.create_table(
        "editorialopened",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("problem", sqltypes.AutoString(length=64), nullable=False),
        sa.Column("opened_at", sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"]),
        sa.PrimaryKeyConstraint("user_id", "problem"),
    )
    op.create_table(
        "comment",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("thread", sqltypes.AutoString(length=80), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("parent_id", sa.Integer(), nullable=True),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("hidden", sa.Boolean(), nullable=False),
        sa.Column("deleted", sa.Boolean(), nullable=False),
        sa.Column("created_at", sqltypes.UTCDateTime(), nullable=False),
        sa.Column("edited_at", sqltypes.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "commentvote",
        sa.Column("comment_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"]),
        sa.PrimaryKeyConstraint("comment_id", "user_id"),
    )
    op.create_table(
        "threadlock",
        sa.Column("thread", sqltypes.AutoString(length=80), nullable=False),
        sa.Column("locked_by", sa.Integer(), nullable=False),
        sa.Column("locked_at", sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("thread"),
    )
    op.create_table(
        "notification",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sqltypes.AutoString(length=16), nullable=False),
        sa.Column("text", sqltypes.AutoString(length=300), nullable=False),
        sa.Column("link", sqltypes.AutoString(length=200), nullable=False),
        sa.Column("created_at", sqltypes.UTCDateTime(), nullable=False),
        sa.Column("read_at", sqltypes.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    for table, columns in INDEXES.items():
        with op.batch_alter_table(table, schema=None) as batch_op:
            for c in columns:
                batch_op.create_index(batch_op.f(f"ix_{table}_{c}"), [c], unique=False)


def downgrade() -> None:
    for table, columns in INDEXES.items():
        with op.batch_alter_table(table, schema=None) as batch_op:
            for c in columns:
                batch_op.drop_index(batch_op.f(f"ix_{table}_{c}"))
    for table in (
        "notification",
        "threadlock",
        "commentvote",
        "comment",
        "editorialopened",
        "solutionvote",
        "publishedsolution",
    ):
        op.drop_table(table)
