"""Sign-up, log-in and log-out forms."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from app import accounts, login_guard, sessions
from app.api.routes.auth import start_session
from app.deps import SessionDep
from app.models import UserCreate
from app.pages.common import CsrfChecked, PageUser, form_errors, render

router = APIRouter(include_in_schema=False)


def _safe_next(nxt: str) -> str:
    return nxt if nxt.startswith("/") and not nxt.startswith("//") else "/problems"


@router.get("/signup")
def signup_form(
    request: Request,
    user: PageUser,
    session: SessionDep,
    next: str = "/problems",
    invite: str = "",
) -> Response:
    cfg = accounts.site_config(session)
    return render(
        request,
        "signup.html",
        user,
        next=_safe_next(next),
        signups_open=cfg.signups_open,
        invite=bool(cfg.invite_code),
        invite_code=invite[:64],  # a class's invite link fills it in (app/pages/classes.py)
    )


@router.post("/signup", dependencies=[CsrfChecked])
async def signup(
    request: Request,
    username: Annotated[str, Form()],
    password: Annotated[str, Form()],
    invite_code: Annotated[str, Form()] = "",
    next: Annotated[str, Form()] = "/problems",
) -> Response:
    def again(status: int, error: str, headers: dict[str, str] | None = None) -> Response:
        cfg = accounts.site_config_of(request.app.state.engine)
        r = render(
            request,
            "signup.html",
            None,
            status_code=status,
            error=error,
            username=username,
            next=next,
            signups_open=cfg.signups_open,
            invite=bool(cfg.invite_code),
            invite_code=invite_code,
        )
        r.headers.update(headers or {})
        return r

    try:
        data = UserCreate(username=username, password=password, invite_code=invite_code)
        user = await login_guard.signup(request, data)
    except ValidationError as e:
        msg = form_errors(e)
        return await run_in_threadpool(again, 422, msg)
    except accounts.AccountError as e:
        return await run_in_threadpool(again, e.status, str(e))
    except login_guard.Throttled as e:
        return await run_in_threadpool(again, 429, str(e).capitalize() + ".", e.headers())
    await start_session(request, user)
    response = RedirectResponse(_safe_next(next), status_code=303)
    login_guard.remember_device(request, response, user)
    return response


@router.get("/login")
def login_form(request: Request, user: PageUser, next: str = "/problems") -> Response:
    return render(request, "login.html", user, next=_safe_next(next))


@router.post("/login", dependencies=[CsrfChecked])
async def login(
    request: Request,
    username: Annotated[str, Form()],
    password: Annotated[str, Form()],
    next: Annotated[str, Form()] = "/problems",
) -> Response:
    try:
        user = await login_guard.login(request, username, password)
    except login_guard.Throttled as e:
        r = render(
            request,
            "login.html",
            None,
            429,
            error=str(e).capitalize() + ".",
            username=username,
            next=next,
        )
        r.headers.update(e.headers())
        return r
    if user is None:
        return render(
            request,
            "login.html",
            None,
            status_code=401,
            error="Wrong username or password.",
            username=username,
            next=next,
        )
    await start_session(request, user)
    response = RedirectResponse(_safe_next(next), status_code=303)
    login_guard.remember_device(request, response, user)
    return response


@router.post("/logout", dependencies=[CsrfChecked])
def logout(request: Request, session: SessionDep) -> Response:
    sessions.end(session, request)
    return RedirectResponse("/problems", status_code=303)


@router.post("/logout/everywhere", dependencies=[CsrfChecked])
def logout_everywhere(
    request: Request,
    user: PageUser,
    session: SessionDep,
    revoke_tokens: Annotated[list[str] | None, Form()] = None,
) -> Response:
    """Every session of this user ends, on every browser, this one too; and, unless the box
    "also revoke my API tokens" was unticked, every personal token."""
    if user is not None and user.id is not None:
        sessions.revoke_all(session, user.id)
        if sessions.wants_token_revocation(revoke_tokens):
            sessions.revoke_tokens(session, user.id)
    request.session.clear()
    return RedirectResponse("/login", status_code=303)
