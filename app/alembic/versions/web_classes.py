"""class mode (issue 24): user.is_instructor; course, coursemember, assignment,
assignmentproblem, editorialrun

Revision ID: web_classes
Revises: web_usernames
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql import sqltypes

revision: str = "web_classes"
down_revision: str | None = "web_usernames"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("user", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("is_instructor", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "course",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sqltypes.AutoString(length=100), nullable=False),
        sa.Column("term", sqltypes.AutoString(length=60), nullable=False),
        sa.Column("invite_code", sqltypes.AutoString(length=64), nullable=False),
        sa.Column("gpu_kind", sqltypes.AutoString(length=32), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=False),
        sa.Column("created_at", sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["created_by"], ["user.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("course", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_course_invite_code"), ["invite_code"], unique=True)
        batch_op.create_index(batch_op.f("ix_course_created_by"), ["created_by"], unique=False)
    op.create_table(
        "coursemember",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("course_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("role", sqltypes.AutoString(length=16), nullable=False),
        sa.Column("joined_at", sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["course_id"], ["course.id"]),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("course_id", "user_id"),
    )
    with op.batch_alter_table("coursemember", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_coursemember_course_id"), ["course_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_coursemember_user_id"), ["user_id"], unique=False)
    op.create_table(
        "assignment",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("course_id", sa.Integer(), nullable=False),
        sa.Column("title", sqltypes.AutoString(length=100), nullable=False),
        sa.Column("opens_at", sqltypes.UTCDateTime(), nullable=False),
        sa.Column("due_at", sqltypes.UTCDateTime(), nullable=False),
        sa.Column("late_until", sqltypes.UTCDateTime(), nullable=True),
        sa.Column("late_factor", sa.Float(), nullable=False),
        sa.Column("timezone", sqltypes.AutoString(length=64), nullable=False),
        sa.Column("created_at", sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["course_id"], ["course.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("assignment", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_assignment_course_id"), ["course_id"], unique=False)
    op.create_table(
        "assignmentproblem",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("assignment_id", sa.Integer(), nullable=False),
        sa.Column("problem", sqltypes.AutoString(length=64), nullable=False),
        sa.Column("rule", sqltypes.AutoString(length=16), nullable=False),
        sa.Column("points", sa.Float(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["assignment_id"], ["assignment.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("assignment_id", "problem"),
    )
    with op.batch_alter_table("assignmentproblem", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_assignmentproblem_assignment_id"), ["assignment_id"], unique=False
        )
    op.create_table(
        "editorialrun",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("problem", sqltypes.AutoString(length=64), nullable=False),
        sa.Column("gpu_kind", sqltypes.AutoString(length=32), nullable=False),
        sa.Column("language", sqltypes.AutoString(length=16), nullable=False),
        sa.Column("submission_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["submission_id"], ["submission.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("editorialrun", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_editorialrun_problem"), ["problem"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_editorialrun_submission_id"), ["submission_id"], unique=False
        )


def downgrade() -> None:
    for table, indexes in (
        ("editorialrun", ("ix_editorialrun_submission_id", "ix_editorialrun_problem")),
        ("assignmentproblem", ("ix_assignmentproblem_assignment_id",)),
        ("assignment", ("ix_assignment_course_id",)),
        ("coursemember", ("ix_coursemember_user_id", "ix_coursemember_course_id")),
        ("course", ("ix_course_created_by", "ix_course_invite_code")),
    ):
        with op.batch_alter_table(table, schema=None) as batch_op:
            for name in indexes:
                batch_op.drop_index(name)
        op.drop_table(table)
    with op.batch_alter_table("user", schema=None) as batch_op:
        batch_op.drop_column("is_instructor")
