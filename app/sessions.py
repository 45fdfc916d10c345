"""Server-side session records, so that a log-in can be revoked.

The signed cookie (Starlette's SessionMiddleware) carries the user's id and a random
session token; the database keeps a SHA-256 of the token per live session. A request is
logged in only while its record exists and has not expired: log-out deletes the record
(a copied cookie stops working), a password change deletes the user's other records,
"log out everywhere" deletes them all; the last two, and an admin's reset, revoke the user's
personal API tokens too (``revoke_tokens``). One indexed read per logged-in request.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from fastapi import Request
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, delete

from app.core.security import hash_token, new_csrf_token
from app.models import ApiToken, User, UserSession, utcnow


def csrf_token(request: Request) -> str:
    """The cookie session's CSRF token, made on first use."""
    tok = request.session.get("csrf")
    if not tok:
        tok = new_csrf_token()
        request.session["csrf"] = tok
    return str(tok)


def _csrf(request: Request) -> None:
    csrf_token(request)


def start(engine: Engine, request: Request, user: User) -> None:
    """A fresh session for ``user`` (no fixation: the old cookie's contents are dropped)."""
    assert user.id is not None
    token = secrets.token_urlsafe(32)
    max_age = request.app.state.settings.SESSION_MAX_AGE_S
    with Session(engine) as db:
        db.add(
            UserSession(
                id=hash_token(token),
                user_id=user.id,
                expires_at=utcnow() + timedelta(seconds=max_age),
            )
        )
        db.commit()
    request.session.clear()
    request.session["uid"] = user.id
    request.session["sid"] = token
    _csrf(request)


def current_user(db: Session, request: Request) -> User | None:
    """The session's user while its record lives; otherwise the cookie is emptied."""
    uid, token = request.session.get("uid"), request.session.get("sid")
    if uid is None:
        return None
    row = db.get(UserSession, hash_token(str(token))) if token else None
    if row is None or row.user_id != uid or _expired(row):
        request.session.clear()
        return None
    user = db.get(User, uid)
    if user is None:
        request.session.clear()
    return user


def _expired(row: UserSession) -> bool:
    exp = row.expires_at
    if exp.tzinfo is None:
        from datetime import UTC

        exp = exp.replace(tzinfo=UTC)
    return exp <= utcnow()


def end(db: Session, request: Request) -> None:
    """Log-out: this session's record goes, so a copy of the cookie is worth nothing."""
    token = request.session.get("sid")
    if token:
        db.exec(delete(UserSession).where(col(UserSession.id) == hash_token(str(token))))
        db.commit()
    request.session.clear()


def revoke_tokens(db: Session, user_id: int) -> int:
    """Delete every personal API token of the user (a password change, an admin's reset, "log
    out everywhere"): a token is a credential like a session, and outlived them before."""
    n = db.exec(delete(ApiToken).where(col(ApiToken.user_id) == user_id)).rowcount
    db.commit()
    return int(n or 0)


def wants_token_revocation(values: list[str] | None) -> bool:
    """The "also revoke my API tokens" box: the form sends a hidden "0" and, ticked, a "1";
    a client that sends neither gets the default, revoking."""
    return not values or "1" in values


def revoke_all(db: Session, user_id: int, keep: Request | None = None) -> int:
    """Delete every session of the user (but ``keep``'s own, when given)."""
    stmt = delete(UserSession).where(col(UserSession.user_id) == user_id)
    token = keep.session.get("sid") if keep is not None else None
    if token:
        stmt = stmt.where(col(UserSession.id) != hash_token(str(token)))
    n = db.exec(stmt).rowcount
    db.commit()
    return int(n or 0)
