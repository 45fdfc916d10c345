"""usernames normalised (NFKC + casefold), as sign-up and log-in now store and look them up

Stops with a message naming the clashing users when two existing names normalise alike
(rename one, then upgrade again).

Revision ID: web_usernames
Revises: web_token_scopes
Create Date: 2026-11-26
"""

import unicodedata
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "web_usernames"
down_revision: str | None = "web_token_scopes"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

users = sa.table("user", sa.column("id", sa.Integer), sa.column("username", sa.String))


def _key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold().strip()


def upgrade() -> None:
    conn = op.get_bind()
    rows = conn.execute(sa.select(users.c.id, users.c.username)).all()
    seen: dict[str, str] = {}
    for _, name in rows:
        key = _key(name)
        if key in seen:
            raise RuntimeError(
                f"users {seen[key]!r} and {name!r} would both be {key!r}; rename one first"
            )
        seen[key] = name
    for uid, name in rows:
        if _key(name) != name:
            conn.execute(sa.update(users).where(users.c.id == uid).values(username=_key(name)))


def downgrade() -> None:
    pass  # the original spellings are not kept
