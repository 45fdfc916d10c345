"""Deleting an account and everything that is the learner's: their submissions, drafts,
tokens, sessions, class memberships, and any other row that points at them.

The rows are found from the tables' foreign keys, not from a list kept by hand, so a table
added later (as class mode added its own) is covered as soon as it references ``user``. The
walk goes down the references: a row pointing at the user is deleted, then each row pointing
at that row, children before parents. Deleting must not take other people's data with it,
so the account is refused while any of those rows also names another user (a class the
learner created, with students in it): that has to be handed over or removed first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import ColumnElement, CursorResult, Table, delete, func, select
from sqlmodel import Session, SQLModel, col

from app.models import User


class EraseRefused(ValueError):
    pass


@dataclass
class Step:
    table: Table
    where: ColumnElement[bool]


def _plan(table: Table, where: ColumnElement[bool], steps: list[Step], depth: int = 0) -> None:
    """Steps deleting the rows of ``table`` matched by ``where``, their dependants first."""
    if depth > 8:
        raise EraseRefused("the tables reference one another too deeply to delete safely")
    for child in SQLModel.metadata.sorted_tables:
        if child is table:
            continue  # no table references itself here; a self-reference would need care
        for fk in child.foreign_keys:
            if fk.column.table is table:
                keys = select(fk.column).where(where).scalar_subquery()
                _plan(child, fk.parent.in_(keys), steps, depth + 1)
    steps.append(Step(table, where))


def plan(user_id: int) -> list[Step]:
    user_table = SQLModel.metadata.tables["user"]
    steps: list[Step] = []
    _plan(user_table, user_table.c.id == user_id, steps)
    return steps


def others_in(session: Session, steps: list[Step], user_id: int) -> list[str]:
    """Tables where the deletion would take rows that also name another user."""
    found = []
    for step in steps:
        for fk in step.table.foreign_keys:
            if fk.column.table.name == "user" and step.table.name != "user":
                n = session.execute(
                    select(func.count())
                    .select_from(step.table)
                    .where(step.where, fk.parent != user_id)
                ).scalar_one()
                if n:
                    found.append(step.table.name)
    return sorted(set(found))


def erase(session: Session, user: User) -> dict[str, int]:
    """Deletes the user and their rows in one transaction; the number of rows per table."""
    assert user.id is not None
    if user.is_admin:
        admins = session.execute(
            select(func.count())
            .select_from(User)
            .where(col(User.is_admin).is_(True), col(User.id) != user.id)
        ).scalar_one()
        if not admins:
            raise EraseRefused(
                "you are the only admin: make someone else an admin before deleting this account"
            )
    steps = plan(user.id)
    shared = others_in(session, steps, user.id)
    if shared:
        raise EraseRefused(
            "this account holds data that others share ("
            + ", ".join(shared)
            + "): hand it over or remove it first (a class you created: remove its members "
            "or delete the class)"
        )
    counts: dict[str, int] = {}
    for step in steps:
        n = cast(CursorResult[Any], session.execute(delete(step.table).where(step.where))).rowcount
        if n:
            counts[step.table.name] = counts.get(step.table.name, 0) + n
    session.commit()
    return counts
