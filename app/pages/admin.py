"""The instructor page and the personal-token page (both plain forms with CSRF)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import ValidationError
from sqlmodel import col, select

from app import accounts, submissions, workers
from app.api.routes.tokens import issue
from app.deps import EnqueueDep, RegistryDep, SessionDep
from app.models import ApiToken, Mode, Scope, SiteConfigUpdate, Submission, User
from app.pages.common import CsrfChecked, PageUser, redirect, render

router = APIRouter(include_in_schema=False)


def _need(user: User | None, admin: bool = False) -> User:
    if user is None:
        raise HTTPException(401, "Log in first.")
    if admin and not user.is_admin:
        raise HTTPException(403, "Only instructors can open this page.")
    return user


@router.get("/settings/tokens")
def tokens_page(request: Request, user: PageUser, session: SessionDep) -> Response:
    u = _need(user)
    rows = session.exec(select(ApiToken).where(ApiToken.user_id == u.id)).all()
    return render(request, "tokens.html", u, tokens=rows, new_token=None)


@router.post("/settings/tokens", dependencies=[CsrfChecked])
def tokens_create(
    request: Request,
    user: PageUser,
    session: SessionDep,
    name: Annotated[str, Form()] = "cli",
    scopes: Annotated[list[str] | None, Form()] = None,
    expires_in_days: Annotated[str, Form()] = "",
) -> Response:
    u = _need(user)
    try:
        wanted = [Scope(x) for x in scopes or ["read", "submit"]]
        days = int(expires_in_days) if expires_in_days else None
    except ValueError as e:
        raise HTTPException(400, "unknown scope or expiry") from e
    if days is not None and not 1 <= days <= 3650:
        raise HTTPException(400, "expiry must be 1 to 3650 days")
    created = issue(session, u, (name.strip() or "cli")[:64], wanted, days)
    rows = session.exec(select(ApiToken).where(ApiToken.user_id == u.id)).all()
    return render(request, "tokens.html", u, tokens=rows, new_token=created.token)


@router.post("/settings/tokens/{token_id}/delete", dependencies=[CsrfChecked])
def tokens_delete(token_id: int, user: PageUser, session: SessionDep) -> Response:
    u = _need(user)
    row = session.get(ApiToken, token_id)
    if row and row.user_id == u.id:
        session.delete(row)
        session.commit()
    return RedirectResponse("/settings/tokens", status_code=303)


@router.get("/admin")
def admin_page(
    request: Request, user: PageUser, session: SessionDep, registry: RegistryDep
) -> Response:
    u = _need(user, admin=True)
    recent = session.exec(select(Submission).order_by(col(Submission.id).desc()).limit(30)).all()
    names = {x.id: x.username for x in session.exec(select(User)).all()}
    return render(
        request,
        "admin.html",
        u,
        cfg=accounts.site_config(session),
        catalog=registry.catalog,
        recent=recent,
        names=names,
        # Each worker's GPU, driver, packages and languages' self-test (app/workers.py).
        worker_reports=[workers.view(r) for r in workers.reports(session)],
    )


@router.post("/admin/reload", dependencies=[CsrfChecked])
def admin_reload(request: Request, user: PageUser, registry: RegistryDep) -> Response:
    _need(user, admin=True)
    cat = registry.reload()
    msg = f"Loaded {len(cat.problems)} problems, {len(cat.errors)} broken"
    return redirect(request, "/admin", msg)


@router.post("/admin/signups", dependencies=[CsrfChecked])
def admin_signups(
    request: Request,
    user: PageUser,
    session: SessionDep,
    signups_open: Annotated[str, Form()] = "",
    invite_code: Annotated[str, Form()] = "",
    generate: Annotated[str, Form()] = "",
) -> Response:
    _need(user, admin=True)
    try:
        data = SiteConfigUpdate(
            signups_open=signups_open == "on",
            invite_code="" if generate == "1" else invite_code[:64],  # replaced anyway
            generate_invite_code=generate == "1",
        )
    except ValidationError as e:
        msg = e.errors()[0]["msg"].removeprefix("Value error, ")
        return redirect(request, "/admin", error=msg)
    accounts.apply_signup_settings(session, data)
    return redirect(request, "/admin", "Sign-up settings saved")


@router.post("/admin/submissions/{sub_id}/rejudge", dependencies=[CsrfChecked])
def admin_rejudge(
    sub_id: int, user: PageUser, session: SessionDep, enqueue: EnqueueDep
) -> Response:
    _need(user, admin=True)
    sub = session.get(Submission, sub_id)
    if sub is None:
        raise HTTPException(404, "no such submission")
    submissions.requeue(session, sub)
    enqueue(sub_id, sub.gpu_kind, sub.mode)
    return RedirectResponse(f"/submissions/{sub_id}", 303)


@router.post("/admin/submissions/{sub_id}/hide", dependencies=[CsrfChecked])
def admin_hide(
    sub_id: int, user: PageUser, session: SessionDep, hidden: Annotated[str, Form()] = "1"
) -> Response:
    _need(user, admin=True)
    sub = session.get(Submission, sub_id)
    if sub is None:
        raise HTTPException(404, "no such submission")
    sub.hidden = hidden == "1"
    session.add(sub)
    session.commit()
    return RedirectResponse(f"/submissions/{sub_id}", 303)


@router.post("/admin/problems/{slug}/rejudge", dependencies=[CsrfChecked])
def admin_rejudge_problem(
    request: Request, slug: str, user: PageUser, session: SessionDep, enqueue: EnqueueDep
) -> Response:
    _need(user, admin=True)
    subs = session.exec(
        select(Submission).where(Submission.problem == slug, Submission.mode == Mode.SUBMIT)
    ).all()
    for sub in subs:
        submissions.requeue(session, sub)
        enqueue(sub.id or 0, sub.gpu_kind, sub.mode)
    return redirect(request, "/admin", f"Re-queued {len(subs)} submissions of {slug}")
