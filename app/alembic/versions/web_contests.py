"""learners measured against each other (issue 40): the rating's history, contests, their
problems, entries (live and virtual) and the final re-run's gradings

Revision ID: web_contests
Revises: web_social
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql import sqltypes

revision: str = "web_contests"
down_revision: str | None = "web_social"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEXES = {
    "ratingpoint": ("user_id", "at"),
    "contest": ("course_id", "created_by"),
    "contestrerun": ("contest_id", "user_id"),
}


def upgrade() -> None:
    op.create_table(
        "ratingpoint",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("at", sqltypes.UTCDateTime(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "contest",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("title", sqltypes.AutoString(length=100), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("start_at", sqltypes.UTCDateTime(), nullable=False),
        sa.Column("end_at", sqltypes.UTCDateTime(), nullable=False),
        sa.Column("freeze_minutes", sa.Integer(), nullable=False),
        sa.Column("rerun", sa.Boolean(), nullable=False),
        sa.Column("course_id", sa.Integer(), nullable=True),
        sa.Column("gpu_kind", sqltypes.AutoString(length=32), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=False),
        sa.Column("created_at", sqltypes.UTCDateTime(), nullable=False),
        sa.Column("reminded_at", sqltypes.UTCDateTime(), nullable=True),
        sa.Column("rerun_at", sqltypes.UTCDateTime(), nullable=True),
        sa.Column("revealed_at", sqltypes.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["course_id"], ["course.id"]),
        sa.ForeignKeyConstraint(["created_by"], ["user.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "contestproblem",
        sa.Column("contest_id", sa.Integer(), nullable=False),
        sa.Column("problem", sqltypes.AutoString(length=64), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["contest_id"], ["contest.id"]),
        sa.PrimaryKeyConstraint("contest_id", "problem"),
    )
    op.create_table(
        "contestentry",
        sa.Column("contest_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("virtual", sa.Boolean(), nullable=False),
        sa.Column("joined_at", sqltypes.UTCDateTime(), nullable=False),
        sa.Column("started_at", sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["contest_id"], ["contest.id"]),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"]),
        sa.PrimaryKeyConstraint("contest_id", "user_id"),
    )
    op.create_table(
        "contestrerun",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("contest_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("problem", sqltypes.AutoString(length=64), nullable=False),
        sa.Column("original_id", sa.Integer(), nullable=False),
        sa.Column("rerun_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["contest_id"], ["contest.id"]),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"]),
        sa.ForeignKeyConstraint(["original_id"], ["submission.id"]),
        sa.ForeignKeyConstraint(["rerun_id"], ["submission.id"]),
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
    for table in ("contestrerun", "contestentry", "contestproblem", "contest", "ratingpoint"):
        op.drop_table(table)
