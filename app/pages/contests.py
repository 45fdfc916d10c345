"""Contest pages (issue 40): the list with the creation form for admins and instructors, a
contest's page (countdown, problems, scoring, the live board over SSE: static/js/contest.js),
joining; and the rating board (/rating), filterable by language and GPU kind."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import Response
from pydantic import ValidationError

from app.classes import service as classes
from app.compete import contests, rating, standings, ticks
from app.compete.contests import ContestCreate, ContestError
from app.deps import RegistryDep, SessionDep, SettingsDep
from app.pages.common import CsrfChecked, PageUser, form_errors, redirect, render
from app.social.markup import render as render_markdown
from judge import languages

router = APIRouter(include_in_schema=False)


@router.get("/contests")
def contest_list(
    request: Request, user: PageUser, session: SessionDep, registry: RegistryDep
) -> Response:
    ticks.tick(request.app.state.engine, request.app.state.enqueue)
    rows = [(c, contests.phase(c)) for c in contests.visible(session, user)]
    teaching = []
    if user is not None and user.id is not None and not user.is_admin:
        teaching = [c for c, role in classes.my_courses(session, user) if role == "instructor"]
    elif user is not None and user.is_admin:
        teaching = [c for c, _ in classes.my_courses(session, user)]
    return render(
        request,
        "contests.html",
        user,
        rows=rows,
        may_create=contests.may_create(user),
        problems=registry.catalog.ordered(),
        courses=teaching,
        gpu_kinds=request.app.state.settings.gpu_kinds,
        default_start=(datetime.now(UTC) + timedelta(minutes=15)).strftime("%Y-%m-%dT%H:%M"),
    )


@router.post("/contests", dependencies=[CsrfChecked])
def contest_create(
    request: Request,
    user: PageUser,
    session: SessionDep,
    registry: RegistryDep,
    settings: SettingsDep,
    title: Annotated[str, Form()] = "",
    description: Annotated[str, Form()] = "",
    problems: Annotated[list[str] | None, Form()] = None,
    start_at: Annotated[str, Form()] = "",
    minutes: Annotated[int, Form()] = 120,
    freeze_minutes: Annotated[int, Form()] = 0,
    rerun: Annotated[str, Form()] = "",
    course_id: Annotated[str, Form()] = "",
    gpu_kind: Annotated[str, Form()] = "",
) -> Response:
    if user is None:
        return redirect(request, "/login?next=/contests")
    try:
        start = datetime.fromisoformat(start_at).replace(tzinfo=UTC)
        data = ContestCreate(
            title=title,
            description=description,
            problems=problems or [],
            start_at=start,
            end_at=start + timedelta(minutes=minutes),
            freeze_minutes=freeze_minutes,
            rerun=bool(rerun),
            course_id=int(course_id) if course_id else None,
            gpu_kind=gpu_kind or None,
        )
        c = contests.create(session, user, data, set(registry.catalog.problems), settings.gpu_kinds)
    except ValidationError as e:
        return redirect(request, "/contests", error=form_errors(e))
    except ValueError as e:  # ContestError, or a start that is not a date
        msg = str(e) if isinstance(e, ContestError) else "the start is not a date and time"
        return redirect(request, "/contests", error=msg)
    return redirect(request, f"/contests/{c.id}", message="Contest created.")


@router.get("/contests/{contest_id}")
def contest_page(
    contest_id: int, request: Request, user: PageUser, session: SessionDep, registry: RegistryDep
) -> Response:
    ticks.tick(request.app.state.engine, request.app.state.enqueue)
    try:
        c = contests.get(session, contest_id, user)
    except ContestError as err:
        raise HTTPException(err.status, str(err)) from err
    assert c.id is not None
    e = contests.entry(session, c.id, user.id) if user and user.id else None
    manage = contests.can_manage(user, c)
    live = standings.compute(session, c, full=manage)
    virtual = standings.compute(session, c, virtual=True)
    until = None
    if e is not None and e.virtual:
        until = contests.window(c, e)[1]
    return render(
        request,
        "contest.html",
        user,
        c=c,
        phase=contests.phase(c),
        start=contests.aware(c.start_at),
        end=contests.aware(c.end_at),
        freeze_at=contests.freeze_at(c),
        virtual_until=until,
        entry=e,
        board=live,
        virtual_board=virtual,
        titles={p.slug: p.title for p in registry.catalog.ordered()},
        scoring=standings.SCORING,
        description_html=render_markdown(c.description) if c.description else "",
    )


@router.post("/contests/{contest_id}/join", dependencies=[CsrfChecked])
def contest_join(
    contest_id: int, request: Request, user: PageUser, session: SessionDep
) -> Response:
    if user is None:
        return redirect(request, f"/login?next=/contests/{contest_id}")
    try:
        c = contests.get(session, contest_id, user)
        j = contests.join(session, user, c)
    except ContestError as e:
        return redirect(request, f"/contests/{contest_id}", error=str(e))
    note = "You started a virtual participation." if j.entry.virtual else "You joined."
    return redirect(request, f"/contests/{contest_id}", message=note)


@router.get("/rating")
def rating_page(
    request: Request,
    user: PageUser,
    session: SessionDep,
    registry: RegistryDep,
    settings: SettingsDep,
    language: str = "",
    gpu: str = "",
) -> Response:
    language = language if languages.get(language) is not None else ""
    gpu = gpu if gpu in settings.gpu_kinds else ""
    difficulty = {p.slug: p.difficulty for p in registry.catalog.problems.values()}
    return render(
        request,
        "rating.html",
        user,
        rows=rating.board(session, difficulty, language or None, gpu or None),
        language=language,
        gpu=gpu,
        languages=languages.all(),
        gpu_kinds=settings.gpu_kinds,
        weights=rating.WEIGHTS,
    )
