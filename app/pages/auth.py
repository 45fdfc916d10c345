"""Sign-up, log-in and log-out forms."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import ValidationError

from app import accounts
from app.api.routes.auth import start_session
from app.deps import SessionDep
from app.models import UserCreate
from app.pages.common import CsrfChecked, PageUser, render

router = APIRouter(include_in_schema=False)


def _safe_next(nxt: str) -> str:
    return nxt if nxt.startswith("/") and not nxt.startswith("//") else "/problems"


@router.get("/signup")
def signup_form(
    request: Request, user: PageUser, session: SessionDep, next: str = "/problems"
) -> Response:
    cfg = accounts.site_config(session)
    return render(
        request,
        "signup.html",
        user,
        next=_safe_next(next),
        signups_open=cfg.signups_open,
        invite=bool(cfg.invite_code),
    )


@router.post("/signup", dependencies=[CsrfChecked])
def signup(
    request: Request,
    session: SessionDep,
    username: Annotated[str, Form()],
    password: Annotated[str, Form()],
    invite_code: Annotated[str, Form()] = "",
    next: Annotated[str, Form()] = "/problems",
) -> Response:
    cfg = accounts.site_config(session)
    try:
        user = accounts.signup(
            session,
            UserCreate(username=username.strip(), password=password, invite_code=invite_code),
        )
    except ValidationError as e:
        msg = "; ".join(f"{err['loc'][-1]}: {err['msg']}" for err in e.errors())
        return render(
            request,
            "signup.html",
            None,
            status_code=422,
            error=msg,
            username=username,
            next=next,
            signups_open=cfg.signups_open,
            invite=bool(cfg.invite_code),
        )
    except accounts.AccountError as e:
        return render(
            request,
            "signup.html",
            None,
            status_code=e.status,
            error=str(e),
            username=username,
            next=next,
            signups_open=cfg.signups_open,
            invite=bool(cfg.invite_code),
        )
    start_session(request, user)
    return RedirectResponse(_safe_next(next), status_code=303)


@router.get("/login")
def login_form(request: Request, user: PageUser, next: str = "/problems") -> Response:
    return render(request, "login.html", user, next=_safe_next(next))


@router.post("/login", dependencies=[CsrfChecked])
def login(
    request: Request,
    session: SessionDep,
    username: Annotated[str, Form()],
    password: Annotated[str, Form()],
    next: Annotated[str, Form()] = "/problems",
) -> Response:
    user = accounts.authenticate(session, username.strip(), password)
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
    start_session(request, user)
    return RedirectResponse(_safe_next(next), status_code=303)


@router.post("/logout", dependencies=[CsrfChecked])
def logout(request: Request) -> Response:
    request.session.clear()
    return RedirectResponse("/problems", status_code=303)
