"""Personal API tokens (for ``kerneldojo submit`` and scripts); each is shown once."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException
from sqlmodel import select

from app.core.security import new_api_token
from app.deps import CurrentUser, SessionDep
from app.models import ApiToken, ApiTokenCreate, ApiTokenCreated, ApiTokenPublic

router = APIRouter(prefix="/tokens", tags=["tokens"])


def issue(session: SessionDep, user_id: int, name: str) -> ApiTokenCreated:
    token, digest = new_api_token()
    row = ApiToken(user_id=user_id, name=name, token_hash=digest, prefix=token[:7])
    session.add(row)
    session.commit()
    session.refresh(row)
    return ApiTokenCreated.model_validate(row, update={"token": token})


@router.get("", response_model=list[ApiTokenPublic])
def list_tokens(session: SessionDep, user: CurrentUser) -> Any:
    return session.exec(select(ApiToken).where(ApiToken.user_id == user.id)).all()


@router.post("", response_model=ApiTokenCreated, status_code=201)
def create_token(data: ApiTokenCreate, session: SessionDep, user: CurrentUser) -> Any:
    assert user.id is not None
    return issue(session, user.id, data.name)


@router.delete("/{token_id}", status_code=204)
def delete_token(token_id: int, session: SessionDep, user: CurrentUser) -> None:
    row = session.get(ApiToken, token_id)
    if row is None or row.user_id != user.id:
        raise HTTPException(404, "no such token")
    session.delete(row)
    session.commit()
