"""Leaderboards (per problem and GPU kind, and overall) and learners' profile pages."""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response
from sqlmodel import select

from app import profile_stats, stats, visibility
from app.compete import rating
from app.deps import RegistryDep, SessionDep, SettingsDep
from app.models import User
from app.pages.common import PageUser, render

router = APIRouter(include_in_schema=False)


@router.get("/leaderboard")
def overall(
    request: Request,
    user: PageUser,
    session: SessionDep,
    registry: RegistryDep,
    settings: SettingsDep,
    gpu: str = "",
) -> Response:
    kind = gpu if gpu in settings.gpu_kinds else settings.gpu_kinds[0]
    slugs = [p.slug for p in registry.catalog.ordered()]
    return render(
        request,
        "leaderboard.html",
        user,
        entries=stats.overall(session, slugs, kind),
        problems=registry.catalog.ordered(),
        gpu=kind,
        gpu_kinds=settings.gpu_kinds,
        p=None,
    )


@router.get("/leaderboard/{slug}")
def problem_board(
    slug: str,
    request: Request,
    user: PageUser,
    session: SessionDep,
    registry: RegistryDep,
    settings: SettingsDep,
    gpu: str = "",
    track: str = "kernel",
) -> Response:
    p = registry.get(slug)
    if p is None:
        raise HTTPException(404, f"There is no problem called “{slug}”.")
    kind = gpu if gpu in settings.gpu_kinds else settings.gpu_kinds[0]
    track = track if track in stats.TRACKS else "kernel"
    # The kernel board's code needs a kernel-track acceptance (app/visibility.py).
    solved_on = visibility.KERNEL if track == visibility.KERNEL else None
    can_see = bool(
        user
        and (
            user.is_admin or (user.id and visibility.has_solved(session, user.id, slug, solved_on))
        )
    )
    return render(
        request,
        "leaderboard.html",
        user,
        board=stats.leaderboard(session, slug, kind, track),
        track=track,
        tracks=[(t, stats.track_languages(t)) for t in stats.TRACKS],
        problems=registry.catalog.ordered(),
        gpu=kind,
        gpu_kinds=settings.gpu_kinds,
        p=p,
        can_see_code=can_see,
    )


@router.get("/users/{username}")
def profile(
    username: str, request: Request, user: PageUser, session: SessionDep, registry: RegistryDep
) -> Response:
    who = session.exec(select(User).where(User.username == username)).first()
    if who is None or who.id is None:
        raise HTTPException(404, f"There is no learner called “{username}”.")
    problems = registry.catalog.ordered()
    return render(
        request,
        "profile.html",
        user,
        who=who,
        numbers=profile_stats.build(session, who, problems, datetime.now(UTC).date()),
        recent=stats.recent(session, who.id, limit=10),
        titles={p.slug: p.title for p in problems},
        # (date, rating) points, oldest first (app/compete/rating.py); none before a solve.
        rating_history=rating.history(session, who.id),
    )
