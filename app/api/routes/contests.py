"""Contests (issue 40): list, create (admins, instructors), read, join, the board and its live
stream. The scoring is app/compete/standings.py's ``SCORING``; the steps at a contest's times
(reminder, final re-run, reveal) app/compete/ticks.py's."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, Field
from sqlmodel import Session
from sse_starlette.sse import EventSourceResponse
from starlette.concurrency import run_in_threadpool

from app.compete import contests, standings, ticks
from app.compete.contests import ContestCreate, ContestError
from app.compete.models import Contest
from app.deps import (
    CurrentUser,
    EngineDep,
    EnqueueDep,
    OptionalUser,
    RegistryDep,
    SessionDep,
    SettingsDep,
    get_optional_user,
)
from app.streams import StreamSlots

router = APIRouter(prefix="/contests", tags=["contests"])
STREAM_POLL_S = 1.0


class ContestOut(BaseModel):
    id: int
    title: str
    description: str
    problems: list[str]
    start_at: datetime
    end_at: datetime
    freeze_minutes: int
    rerun: bool = Field(description="a secret final re-run of every best submission")
    course_id: int | None = Field(description="limited to this class; none: public")
    gpu_kind: str
    phase: str = Field(description="upcoming, running, frozen, judging or final")
    scoring: str
    joined: bool
    virtual: bool = Field(description="the caller's participation is virtual")


class StandingsOut(BaseModel):
    contest_id: int
    phase: str
    virtual: bool
    frozen: bool = Field(description="shown as it stood when the board froze")
    problems: list[str]
    rerun_pending: int
    lines: list[dict[str, Any]]


class JoinOut(BaseModel):
    joined: bool
    virtual: bool
    started_at: datetime


def _refuse(e: ContestError) -> HTTPException:
    return HTTPException(e.status, str(e))


def out(session: Session, c: Contest, user_id: int | None) -> ContestOut:
    assert c.id is not None
    e = contests.entry(session, c.id, user_id) if user_id is not None else None
    return ContestOut(
        id=c.id,
        title=c.title,
        description=c.description,
        problems=contests.problems(session, c.id),
        start_at=contests.aware(c.start_at),
        end_at=contests.aware(c.end_at),
        freeze_minutes=c.freeze_minutes,
        rerun=c.rerun,
        course_id=c.course_id,
        gpu_kind=c.gpu_kind,
        phase=contests.phase(c),
        scoring=standings.SCORING,
        joined=e is not None,
        virtual=bool(e and e.virtual),
    )


@router.get("", response_model=list[ContestOut], summary="Contests you may see")
def list_contests(session: SessionDep, user: OptionalUser) -> list[ContestOut]:
    """Public contests and those of your classes, the latest start first."""
    uid = user.id if user else None
    return [out(session, c, uid) for c in contests.visible(session, user)]


@router.post("", response_model=ContestOut, status_code=201, summary="Create a contest")
def create_contest(
    body: ContestCreate,
    session: SessionDep,
    user: CurrentUser,
    registry: RegistryDep,
    settings: SettingsDep,
) -> ContestOut:
    """Admins and instructors: problems, start and end (ISO 8601, UTC when no offset), minutes
    of frozen board before the end, the final re-run, a class (``course_id``) or public, and
    the GPU kind its submissions count on (default: the server's first)."""
    try:
        c = contests.create(session, user, body, set(registry.catalog.problems), settings.gpu_kinds)
    except ContestError as e:
        raise _refuse(e) from e
    return out(session, c, user.id)


@router.get("/{contest_id}", response_model=ContestOut, summary="One contest")
def get_contest(
    contest_id: int, session: SessionDep, user: OptionalUser, engine: EngineDep, enq: EnqueueDep
) -> ContestOut:
    """Its problems, times, scoring and phase, and whether you joined it."""
    ticks.tick(engine, enq)
    try:
        c = contests.get(session, contest_id, user)
    except ContestError as e:
        raise _refuse(e) from e
    return out(session, c, user.id if user else None)


@router.post("/{contest_id}/join", response_model=JoinOut, summary="Join a contest")
def join_contest(contest_id: int, session: SessionDep, user: CurrentUser) -> JoinOut:
    """Joins before or during the contest (a late joiner's times count from the start), or,
    after its results are out, starts a virtual participation of its length, ranked apart."""
    try:
        c = contests.get(session, contest_id, user)
        j = contests.join(session, user, c)
    except ContestError as e:
        raise _refuse(e) from e
    return JoinOut(
        joined=True, virtual=j.entry.virtual, started_at=contests.aware(j.entry.started_at)
    )


def _board(session: Session, c: Contest, user_id: int | None, virtual: bool) -> dict[str, Any]:
    full = False
    if user_id is not None:
        from app.models import User

        u = session.get(User, user_id)
        full = contests.can_manage(u, c)
    return standings.as_dict(standings.compute(session, c, virtual=virtual, full=full))


@router.get("/{contest_id}/standings", response_model=StandingsOut, summary="A contest's board")
def contest_standings(
    contest_id: int,
    session: SessionDep,
    user: OptionalUser,
    engine: EngineDep,
    enq: EnqueueDep,
    virtual: bool = False,
) -> Any:
    """Ranks, points, solved problems and minutes; per problem: solved, failed tries, minutes
    of the first acceptance, the best time, points, and the final re-run's verdict. Frozen for
    its last ``freeze_minutes`` (except to its creator and admins) until the reveal;
    ``virtual=true``: the virtual participations' board."""
    ticks.tick(engine, enq)
    try:
        c = contests.get(session, contest_id, user)
    except ContestError as e:
        raise _refuse(e) from e
    return _board(session, c, user.id if user else None, virtual)


_ticked = [0.0]


def _tick_due() -> bool:
    """At most one tick a second for all of this process's streams (each reads once a second:
    forty open pages need not tick forty times)."""
    now = time.monotonic()
    if now - _ticked[0] < STREAM_POLL_S:
        return False
    _ticked[0] = now
    return True


def _read(engine: Any, request: Request, contest_id: int, virtual: bool) -> str | None:
    with Session(engine) as session:
        user = get_optional_user(request, session)
        try:
            c = contests.get(session, contest_id, user)
        except ContestError:
            return None
        return json.dumps(_board(session, c, user.id if user else None, virtual))


@router.get("/{contest_id}/events", summary="A contest's board, live (SSE)")
async def contest_events(
    contest_id: int,
    request: Request,
    engine: EngineDep,
    enq: EnqueueDep,
    settings: SettingsDep,
    virtual: bool = False,
) -> EventSourceResponse:
    """Server-sent ``standings`` events: the board (as ``/standings``) each time it changes,
    read once a second, until SSE_MAX_S; then the page reconnects. Counted in the server's
    stream caps (app/streams.py) under the contest's negative id."""
    first = await run_in_threadpool(_read, engine, request, contest_id, virtual)
    if first is None:
        raise HTTPException(404, "there is no such contest, or it is for a class you are not in")
    slots: StreamSlots = request.app.state.streams
    client = request.client.host if request.client else "?"
    refused = slots.acquire(client, -contest_id)
    if refused:
        raise HTTPException(429, refused, headers={"Retry-After": "10"})
    deadline = time.monotonic() + settings.SSE_MAX_S

    async def gen() -> AsyncIterator[dict[str, str]]:
        last: str | None = None
        try:
            while time.monotonic() < deadline:
                if _tick_due():
                    await run_in_threadpool(ticks.tick, engine, enq)
                now = await run_in_threadpool(_read, engine, request, contest_id, virtual)
                if now is None:
                    return
                if now != last:
                    last = now
                    yield {"event": "standings", "data": now}
                await asyncio.sleep(STREAM_POLL_S)
            yield {"event": "timeout", "data": "{}"}
        finally:
            slots.release(client, -contest_id)

    return EventSourceResponse(gen())
