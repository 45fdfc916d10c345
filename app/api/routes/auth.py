"""Sign up, log in and log out with the session cookie (JSON forms of the HTML pages)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from app import accounts, login_guard, sessions
from app.deps import CurrentUser, SessionDep
from app.models import User, UserCreate, UserPublic

router = APIRouter(prefix="/auth", tags=["auth"])


class Login(BaseModel):
    username: str
    password: str


async def start_session(request: Request, user: User) -> None:
    """A server-side session record and a fresh cookie (app/sessions.py)."""
    await run_in_threadpool(sessions.start, request.app.state.engine, request, user)


# Both are async: they wait for the hash pool without holding a thread, a database
# connection or a request slot (app/login_guard.py).
@router.post("/signup", response_model=UserPublic, status_code=201)
async def signup(request: Request, response: Response, data: UserCreate) -> Any:
    """Creates an account and logs it in (a session cookie). The password's strength is checked;
    when the admin has closed sign-ups, an invite code (the site's or a class's) admits."""
    try:
        user = await login_guard.signup(request, data)
    except accounts.AccountError as e:
        raise HTTPException(e.status, str(e)) from e
    except login_guard.Throttled as e:
        raise HTTPException(429, str(e), headers=e.headers()) from e
    await start_session(request, user)
    login_guard.remember_device(request, response, user)
    return user


@router.post("/login", response_model=UserPublic)
async def login(request: Request, response: Response, data: Login) -> Any:
    """Logs in with a username and password (a session cookie). Throttled per account and per
    address: 429 with Retry-After."""
    try:
        user = await login_guard.login(request, data.username, data.password)
    except login_guard.Throttled as e:
        raise HTTPException(429, str(e), headers=e.headers()) from e
    if user is None:
        raise HTTPException(401, "wrong username or password")
    await start_session(request, user)
    login_guard.remember_device(request, response, user)
    return user


@router.post("/logout", status_code=204)
def logout(request: Request, session: SessionDep, user: CurrentUser) -> None:
    """Ends this session on the server too: a copy of the cookie stops working."""
    sessions.end(session, request)


class LogoutEverywhere(BaseModel):
    # Personal API tokens end with the sessions unless asked otherwise.
    revoke_tokens: bool = True


@router.post("/logout-everywhere", status_code=204)
def logout_everywhere(
    request: Request,
    session: SessionDep,
    user: CurrentUser,
    data: LogoutEverywhere | None = None,
) -> None:
    """Ends every session of the user, this one included, and revokes their personal API
    tokens (``{"revoke_tokens": false}`` keeps them)."""
    assert user.id is not None
    sessions.revoke_all(session, user.id)
    if data is None or data.revoke_tokens:
        sessions.revoke_tokens(session, user.id)
    request.session.clear()


@router.get("/me", response_model=UserPublic, summary="The logged-in user")
def me(user: CurrentUser) -> Any:
    """The user this cookie or token belongs to."""
    return user
