"""Dependencies as ``Annotated`` aliases: settings, database session, current user, CSRF.

A request is authenticated by a personal token (``Authorization: Bearer kd_...``) or by the
session cookie. Cookie-authenticated writes must carry the CSRF token (form field
``csrf_token`` or header ``X-CSRF-Token``); token-authenticated ones need not.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Annotated

from fastapi import Depends, HTTPException, Request
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app import sessions
from app.core.config import Settings
from app.core.security import csrf_matches, hash_token
from app.models import ApiToken, Scope, User, utcnow
from app.problems import ProblemRegistry
from app.queue import Enqueue

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def get_settings_dep(request: Request) -> Settings:
    s: Settings = request.app.state.settings
    return s


def get_engine(request: Request) -> Engine:
    e: Engine = request.app.state.engine
    return e


def get_session(request: Request) -> Iterator[Session]:
    with Session(request.app.state.engine) as session:
        yield session


def get_registry(request: Request) -> ProblemRegistry:
    r: ProblemRegistry = request.app.state.registry
    return r


def get_enqueue(request: Request) -> Enqueue:
    f: Enqueue = request.app.state.enqueue
    return f


SettingsDep = Annotated[Settings, Depends(get_settings_dep)]
EngineDep = Annotated[Engine, Depends(get_engine)]
SessionDep = Annotated[Session, Depends(get_session)]
RegistryDep = Annotated[ProblemRegistry, Depends(get_registry)]
EnqueueDep = Annotated[Enqueue, Depends(get_enqueue)]


def required_scope(request: Request) -> str | None:
    """The scope a token needs for this request; None where tokens are not accepted."""
    path = request.url.path
    if path.startswith("/api/v1/tokens"):
        return None  # else a 'read' token could mint itself a 'submit' one
    if path.startswith("/api/v1/admin"):
        return Scope.ADMIN
    return Scope.READ if request.method in SAFE_METHODS else Scope.SUBMIT


def _aware(d: datetime) -> datetime:
    return d if d.tzinfo else d.replace(tzinfo=UTC)


def _bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    return auth[7:].strip() if auth.lower().startswith("bearer ") else None


def get_optional_user(request: Request, session: SessionDep) -> User | None:
    token = _bearer(request)
    if token:
        row = session.exec(select(ApiToken).where(ApiToken.token_hash == hash_token(token))).first()
        if row is None:
            raise HTTPException(401, "invalid API token")
        if row.expires_at is not None and _aware(row.expires_at) <= utcnow():
            raise HTTPException(
                401, f"this API token expired on {row.expires_at:%Y-%m-%d %H:%M} UTC"
            )
        need = required_scope(request)
        if need is None:
            raise HTTPException(
                403, "tokens are managed from a logged-in session, not with a token"
            )
        if need not in row.scope_set:
            raise HTTPException(
                403, f"this token lacks the '{need}' scope (it has: {row.scopes or 'none'})"
            )
        row.last_used_at = utcnow()
        session.add(row)
        session.commit()
        return session.get(User, row.user_id)
    user = sessions.current_user(session, request)
    if user is None:
        return None
    if request.method not in SAFE_METHODS and not csrf_matches(
        request.session.get("csrf"), request.headers.get("x-csrf-token")
    ):
        raise HTTPException(403, "missing or wrong CSRF token (send the X-CSRF-Token header)")
    return user


OptionalUser = Annotated[User | None, Depends(get_optional_user)]


def get_current_user(user: OptionalUser) -> User:
    if user is None:
        raise HTTPException(401, "log in, or send a personal token as 'Authorization: Bearer ...'")
    return user


CurrentUser = Annotated[User, Depends(get_current_user)]


def get_admin(user: CurrentUser) -> User:
    if not user.is_admin:
        raise HTTPException(403, "admins only")
    return user


AdminUser = Annotated[User, Depends(get_admin)]
