"""The account page (e-mail for resets, deleting the account) and password resets by e-mail.

Changing one's password is ``account.py``; an instructor's reset of a learner's password is on
the admin page. Resets by e-mail exist only where the server has SMTP (``app/mail.py``): the
"forgot your password?" form always answers the same, whether or not the account exists, and
each request counts against the account's and the address's throttle (``reset-*``).
"""

from __future__ import annotations

import contextlib
import logging
import math
import re
from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import ValidationError
from sqlmodel import Session
from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool

from app import accounts, erase, login_guard, mail, resets
from app.core import hosts, throttle
from app.core.config import Settings
from app.deps import SessionDep, SettingsDep
from app.models import PasswordChange, User
from app.pages.common import CsrfChecked, PageUser, redirect, render

router = APIRouter(include_in_schema=False)
log = logging.getLogger(__name__)
NO_PUBLIC_URL = (
    "Password resets by e-mail are switched off on this server until an admin sets PUBLIC_URL "
    "(the site's address, for the links in mails). Ask an admin to reset your password."
)

# An address with one @, a dot in its domain, no spaces: enough to catch a typo; the mail
# server is the real check.
EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


@router.get("/settings/account")
def account_page(request: Request, user: PageUser) -> Response:
    if user is None:
        return RedirectResponse("/login?next=/settings/account", 303)
    return render(request, "account.html", user)


@router.post("/settings/account/email", dependencies=[CsrfChecked])
def set_email(
    request: Request,
    user: PageUser,
    session: SessionDep,
    settings: SettingsDep,
    email: Annotated[str, Form()] = "",
) -> Response:
    if user is None:
        raise HTTPException(401, "Log in first.")
    if not settings.smtp_configured:
        raise HTTPException(404, "This server sends no mail, so it keeps no e-mail addresses.")
    email = email.strip()
    if email and (len(email) > 254 or not EMAIL.fullmatch(email)):
        msg = f"“{email[:80]}” does not look like an e-mail address; nothing was changed."
    else:
        me = session.get(User, user.id)
        assert me is not None
        me.email = email or None
        session.add(me)
        session.commit()
        msg = f"Password resets will be sent to {email}." if email else "E-mail address removed."
    return redirect(request, "/settings/account", msg)


@router.post("/settings/account/delete", dependencies=[CsrfChecked])
async def delete_account(
    request: Request,
    user: PageUser,
    password: Annotated[str, Form()],
    confirm_username: Annotated[str, Form()],
) -> Response:
    if user is None:
        raise HTTPException(401, "Log in first.")

    def again(status: int, error: str) -> Response:
        return render(request, "account.html", user, status_code=status, error=error)

    if accounts.username_key(confirm_username) != user.username:
        return again(422, f"Type your username, {user.username}, to confirm.")
    try:
        if not await login_guard.check_current_password(request, user, password):
            return again(400, "Your password is not right.")
    except login_guard.Throttled as e:
        return again(429, str(e).capitalize() + ".")
    engine = request.app.state.engine

    def remove() -> dict[str, int]:
        with Session(engine) as db:
            me = db.get(User, user.id)
            assert me is not None
            return erase.erase(db, me)

    try:
        await run_in_threadpool(remove)
    except erase.EraseRefused as e:
        return again(409, str(e).capitalize() + ".")
    request.session.clear()
    return render(request, "account_deleted.html", None, username=user.username)


# --- resets by e-mail ---------------------------------------------------------------------


@router.get("/password/forgot")
def forgot_form(request: Request, user: PageUser) -> Response:
    return render(request, "password_forgot.html", user)


@router.post("/password/forgot", dependencies=[CsrfChecked])
async def forgot(
    request: Request, user: PageUser, settings: SettingsDep, who: Annotated[str, Form()]
) -> Response:
    if not settings.smtp_configured:
        return render(request, "password_forgot.html", user, status_code=404)
    base = hosts.mail_base(settings, request)
    if base is None:  # the same answer for every account: nothing is looked up
        log.error(
            "password reset refused: PUBLIC_URL is not set, and a link built from the request's "
            "Host header could point anywhere; set PUBLIC_URL to the site's address"
        )
        return render(request, "password_forgot.html", user, status_code=503, error=NO_PUBLIC_URL)
    engine = request.app.state.engine
    keys: list[throttle.Key] = [
        ("reset-ip", login_guard.client_ip(request)),
        ("reset-user", accounts.username_key(who)[:100]),
    ]
    locked = await run_in_threadpool(throttle.locks, engine, keys)
    if locked:
        wait = math.ceil(max(locked.values()))
        r = render(
            request,
            "password_forgot.html",
            user,
            status_code=429,
            error=f"Too many reset requests; try again in {wait} s.",
        )
        r.headers["Retry-After"] = str(wait)
        return r
    await run_in_threadpool(throttle.fail, engine, keys)  # every request counts

    def find() -> User | None:
        with Session(engine) as db:
            found = resets.find_for_reset(db, who)
            if found is not None:
                db.expunge(found)
            return found

    target = await run_in_threadpool(find)
    r = render(request, "password_forgot.html", user, sent=True)
    if target is not None and target.email:
        link = f"{base}/password/reset?{urlencode({'token': resets.make_token(settings, target)})}"
        # After the response, so that its timing does not tell whether the account exists.
        r.background = BackgroundTask(
            _send_quietly, settings, target.email, resets.mail_body(target.username, link)
        )
    return r


def _send_quietly(settings: Settings, to: str, body: str) -> None:
    with contextlib.suppress(mail.MailError):  # logged by mail.send
        mail.send(settings, to, "Reset your KernelDojo password", body)


@router.get("/password/reset")
def reset_form(
    request: Request, user: PageUser, session: SessionDep, settings: SettingsDep, token: str = ""
) -> Response:
    try:
        who = resets.user_for_token(settings, session, token)
    except resets.ResetError as e:
        return render(request, "password_reset.html", user, status_code=400, error=str(e))
    return render(request, "password_reset.html", user, token=token, who=who)


@router.post("/password/reset", dependencies=[CsrfChecked])
async def reset(
    request: Request,
    user: PageUser,
    settings: SettingsDep,
    token: Annotated[str, Form()],
    new_password: Annotated[str, Form()],
    confirm_password: Annotated[str, Form()],
) -> Response:
    engine = request.app.state.engine

    def target() -> User:
        with Session(engine) as db:
            found = resets.user_for_token(settings, db, token)
            db.expunge(found)
            return found

    try:
        who = await run_in_threadpool(target)
    except resets.ResetError as e:
        return render(request, "password_reset.html", user, status_code=400, error=str(e))

    def again(status: int, error: str) -> Response:
        return render(
            request,
            "password_reset.html",
            user,
            status_code=status,
            error=error,
            token=token,
            who=who,
        )

    if new_password != confirm_password:
        return again(422, "The two passwords differ.")
    try:
        PasswordChange(username=who.username, password=new_password)
    except ValidationError as e:
        return again(
            422, f"New password: {str(e.errors()[0]['msg']).removeprefix('Value error, ')}."
        )
    try:
        new_hash = await login_guard.hash_new_password(request, new_password)
    except login_guard.Throttled as e:
        return again(429, str(e).capitalize() + ".")

    def save() -> None:
        with Session(engine) as db:
            me = db.get(User, who.id)
            assert me is not None
            accounts.set_password(db, me, new_hash)  # every session ends; the link is spent

    await run_in_threadpool(save)
    return RedirectResponse("/login?reset=1", 303)
