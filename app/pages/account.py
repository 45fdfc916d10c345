"""The password page (change one's own) and the instructor's password reset for a learner.

A change or a reset ends every session of that user (``accounts.set_password``) and revokes
their personal API tokens (a learner changing their own password may untick that); a learner
who changed their own password is logged in again on this browser only.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import ValidationError
from sqlmodel import Session, select
from starlette.concurrency import run_in_threadpool

from app import accounts, login_guard, sessions
from app.core.security import hash_password
from app.deps import SessionDep
from app.models import PasswordChange, User
from app.pages.common import CsrfChecked, PageUser, redirect, render

router = APIRouter(include_in_schema=False)


def _rule_error(e: ValidationError) -> str:
    return str(e.errors()[0]["msg"]).removeprefix("Value error, ")


@router.get("/settings/password")
def password_page(request: Request, user: PageUser, done: int = 0) -> Response:
    """``done``: 1 after a change that revoked the API tokens, 2 after one that kept them."""
    if user is None:
        return RedirectResponse("/login?next=/settings/password", 303)
    return render(request, "password.html", user, done=done if done in (1, 2) else 0)


@router.post("/settings/password", dependencies=[CsrfChecked])
async def password_change(
    request: Request,
    user: PageUser,
    current_password: Annotated[str, Form()],
    new_password: Annotated[str, Form()],
    confirm_password: Annotated[str, Form()],
    revoke_tokens: Annotated[list[str] | None, Form()] = None,
) -> Response:
    if user is None:
        raise HTTPException(401, "Log in first.")
    revoke = sessions.wants_token_revocation(revoke_tokens)

    def again(status: int, error: str, headers: dict[str, str] | None = None) -> Response:
        r = render(request, "password.html", user, status_code=status, error=error)
        r.headers.update(headers or {})
        return r

    try:
        if not await login_guard.check_current_password(request, user, current_password):
            return again(400, "Your current password is not right.")
        if new_password != confirm_password:
            return again(422, "The two new passwords differ.")
        try:
            PasswordChange(username=user.username, password=new_password)
        except ValidationError as e:
            return again(422, f"New password: {_rule_error(e)}.")
        new_hash = await login_guard.hash_new_password(request, new_password)
    except login_guard.Throttled as e:
        return again(429, str(e).capitalize() + ".", e.headers())
    engine = request.app.state.engine

    def save() -> None:
        with Session(engine) as db:
            me = db.get(User, user.id)
            assert me is not None
            # Every session ends, this one too (and the tokens, unless the box was unticked).
            accounts.set_password(db, me, new_hash, revoke_tokens=revoke)
            sessions.start(engine, request, me)  # ... and this browser logs in afresh

    await run_in_threadpool(save)
    return RedirectResponse(f"/settings/password?done={1 if revoke else 2}", 303)


@router.post("/admin/users/password", dependencies=[CsrfChecked])
def admin_password_reset(
    request: Request,
    user: PageUser,
    session: SessionDep,
    username: Annotated[str, Form()],
    new_password: Annotated[str, Form()],
) -> Response:
    """An instructor sets a learner's password (to hand over in person); their sessions end."""
    if user is None or not user.is_admin:
        raise HTTPException(403, "Only instructors can reset passwords.")
    name = accounts.username_key(username)
    who = session.exec(select(User).where(User.username == name)).first()
    if who is None:
        return redirect(request, "/admin", error=f"There is no learner called {name!r}.")
    try:
        PasswordChange(username=who.username, password=new_password)
    except ValidationError as e:
        return redirect(request, "/admin", error=f"Password not changed: {_rule_error(e)}.")
    accounts.set_password(session, who, hash_password(new_password))
    msg = (
        f"New password set for {who.username}; their sessions have ended and their "
        "API tokens are revoked."
    )
    return redirect(request, "/admin", msg)
