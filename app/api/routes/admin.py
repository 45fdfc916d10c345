"""Instructor actions: reload problems, rejudge, hide from the leaderboard, close sign-ups; the
workers' self-test reports."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel
from sqlmodel import select

from app import accounts, submissions, workers
from app.deps import AdminUser, EnqueueDep, RegistryDep, SessionDep
from app.models import Mode, SiteConfig, SiteConfigPublic, SiteConfigUpdate, Submission

router = APIRouter(prefix="/admin", tags=["admin"])


class ReloadReport(BaseModel):
    loaded: list[str]
    errors: list[str]


class Hide(BaseModel):
    hidden: bool = True


@router.get("/workers")
def worker_reports(_: AdminUser, session: SessionDep) -> list[dict[str, Any]]:
    """Each worker's environment (GPU, driver, package versions) and its languages' self-test
    (status, verdict, error, seconds), as it reported them at its start (app/workers.py)."""
    return [workers.view(r) for r in workers.reports(session)]


@router.post("/problems/reload", response_model=ReloadReport)
def reload_problems(_: AdminUser, registry: RegistryDep) -> ReloadReport:
    """Reads problems/ again: new, changed and removed problems, and any folder that fails to load.
    Admins only."""
    cat = registry.reload()
    return ReloadReport(loaded=[p.slug for p in cat.ordered()], errors=[str(e) for e in cat.errors])


@router.post("/submissions/{sub_id}/rejudge")
def rejudge_submission(
    sub_id: int, _: AdminUser, session: SessionDep, enqueue: EnqueueDep
) -> dict[str, Any]:
    """Grades one submission again, from the queue. Admins only."""
    sub = session.get(Submission, sub_id)
    if sub is None:
        raise HTTPException(404, "no such submission")
    submissions.requeue(session, sub)
    assert sub.id is not None
    enqueue(sub.id, sub.gpu_kind, sub.mode)
    return {"requeued": [sub.id]}


@router.post("/problems/{slug}/rejudge")
def rejudge_problem(
    slug: str, _: AdminUser, session: SessionDep, registry: RegistryDep, enqueue: EnqueueDep
) -> dict[str, Any]:
    """Grades every submission of a problem again (after a fix to its tests). Admins only."""
    if registry.get(slug) is None:
        raise HTTPException(404, f"unknown problem {slug!r}")
    subs = session.exec(
        select(Submission).where(Submission.problem == slug, Submission.mode == Mode.SUBMIT)
    ).all()
    ids = []
    for sub in subs:
        submissions.requeue(session, sub)
        assert sub.id is not None
        enqueue(sub.id, sub.gpu_kind, sub.mode)
        ids.append(sub.id)
    return {"requeued": ids}


@router.post("/submissions/{sub_id}/hide")
def hide_submission(sub_id: int, data: Hide, _: AdminUser, session: SessionDep) -> dict[str, Any]:
    """Hides a submission from boards and lists, or shows it again. Admins only."""
    sub = session.get(Submission, sub_id)
    if sub is None:
        raise HTTPException(404, "no such submission")
    sub.hidden = data.hidden
    session.add(sub)
    session.commit()
    return {"id": sub.id, "hidden": sub.hidden}


@router.get("/signups", response_model=SiteConfigPublic, summary="Sign-up settings")
def get_signups(_: AdminUser, session: SessionDep) -> Any:
    """Whether sign-ups are open, and the invite code that opens them when closed. Admins only."""
    return accounts.site_config(session)


@router.put("/signups", response_model=SiteConfigPublic)
def set_signups(data: SiteConfigUpdate, _: AdminUser, session: SessionDep) -> SiteConfig:
    """``generate_invite_code: true`` sets a strong random code; typed codes need 12+ chars."""
    return accounts.apply_signup_settings(session, data)
