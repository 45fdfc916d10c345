"""Sign up, log in and log out with the session cookie (JSON forms of the HTML pages)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel

from app import accounts
from app.deps import CurrentUser, SessionDep, csrf_token
from app.models import User, UserCreate, UserPublic

router = APIRouter(prefix="/auth", tags=["auth"])


class Login(BaseModel):
    username: str
    password: str


def start_session(request: Request, user: User) -> None:
    request.session.clear()  # a fresh session on log-in (no fixation)
    request.session["uid"] = user.id
    csrf_token(request)


@router.post("/signup", response_model=UserPublic, status_code=201)
def signup(request: Request, session: SessionDep, data: UserCreate) -> Any:
    try:
        user = accounts.signup(session, data)
    except accounts.AccountError as e:
        raise HTTPException(e.status, str(e)) from e
    start_session(request, user)
    return user


@router.post("/login", response_model=UserPublic)
def login(request: Request, session: SessionDep, data: Login) -> Any:
    user = accounts.authenticate(session, data.username, data.password)
    if user is None:
        raise HTTPException(401, "wrong username or password")
    start_session(request, user)
    return user


@router.post("/logout", status_code=204)
def logout(request: Request, user: CurrentUser) -> None:
    request.session.clear()


@router.get("/me", response_model=UserPublic)
def me(user: CurrentUser) -> Any:
    return user
