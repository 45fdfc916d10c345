"""Personal API tokens (for ``kerneldojo submit`` and scripts); each is shown once.

A token has scopes (``read``, ``submit``, ``admin``) and may expire. Tokens are managed from a
logged-in session only: a token cannot list, mint or revoke tokens (``app/deps.py``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from fastapi import APIRouter, HTTPException
from sqlmodel import select

from app.core.security import new_api_token
from app.deps import CurrentUser, SessionDep
from app.models import (
    ApiToken,
    ApiTokenCreate,
    ApiTokenCreated,
    ApiTokenPublic,
    Scope,
    User,
    utcnow,
)

router = APIRouter(prefix="/tokens", tags=["tokens"])


def issue(
    session: SessionDep,
    user: User,
    name: str,
    scopes: list[Scope] | None = None,
    expires_in_days: int | None = None,
) -> ApiTokenCreated:
    assert user.id is not None
    wanted = sorted(set(scopes or [Scope.READ, Scope.SUBMIT]))
    if Scope.ADMIN in wanted and not user.is_admin:
        raise HTTPException(403, "only admins can create a token with the 'admin' scope")
    token, digest = new_api_token()
    row = ApiToken(
        user_id=user.id,
        name=name,
        token_hash=digest,
        prefix=token[:7],
        scopes=",".join(wanted),
        expires_at=utcnow() + timedelta(days=expires_in_days) if expires_in_days else None,
    )
    session.add(row)
    session.commit()
    session.refresh(row)
    return ApiTokenCreated.model_validate(row, update={"token": token})


@router.get("", response_model=list[ApiTokenPublic])
def list_tokens(session: SessionDep, user: CurrentUser) -> Any:
    """The caller's personal API tokens: name, scopes, expiry, last use (never the token itself)."""
    return session.exec(select(ApiToken).where(ApiToken.user_id == user.id)).all()


@router.post("", response_model=ApiTokenCreated, status_code=201)
def create_token(data: ApiTokenCreate, session: SessionDep, user: CurrentUser) -> Any:
    """Scopes: ``read``, ``submit`` (default both), ``admin`` (admins only); optional expiry."""
    return issue(session, user, data.name, data.scopes, data.expires_in_days)


@router.delete("/{token_id}", status_code=204)
def delete_token(token_id: int, session: SessionDep, user: CurrentUser) -> None:
    """Revokes one of the caller's tokens at once."""
    row = session.get(ApiToken, token_id)
    if row is None or row.user_id != user.id:
        raise HTTPException(404, "no such token")
    session.delete(row)
    session.commit()
