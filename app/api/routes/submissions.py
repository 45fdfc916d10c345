"""Submissions: create (Run or Submit), read, and follow live progress over SSE."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from pydantic import ValidationError
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select
from sse_starlette.sse import EventSourceResponse
from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool

from app import profile_view, submissions, unavailable, visibility, workers
from app.core import db
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
from app.models import (
    Status,
    Submission,
    SubmissionCreate,
    SubmissionDetail,
    SubmissionPublic,
    User,
)
from app.streams import SharedPoll, StreamSlots

router = APIRouter(prefix="/submissions", tags=["submissions"])
POLL_S = 0.25


def public(sub: Submission, username: str, viewer: User) -> SubmissionPublic:
    """A row of a list of the viewer's own submissions (their code, so their messages)."""
    msg = visibility.message_for(sub, code=True, admin=viewer.is_admin)
    return SubmissionPublic.model_validate(sub, update={"username": username, "message": msg})


def detail(session: Session, sub: Submission, viewer: User | None) -> SubmissionDetail:
    owner = session.get(User, sub.user_id)
    code = visibility.may_see_code(session, viewer, sub)
    admin = bool(viewer and viewer.is_admin)
    return SubmissionDetail.model_validate(
        sub,
        update={
            "username": owner.username if owner else "",
            "message": visibility.message_for(sub, code=code, admin=admin),
            "source": sub.source if code else None,
            "result": visibility.result_for(sub.result, code=code, admin=admin),
            "progress": sub.progress,
            "queue_position": submissions.queue_position(session, sub),
        },
    )


async def submission_body(request: Request, _: CurrentUser) -> SubmissionCreate:
    """The JSON body, read only once its sender is authenticated (``CurrentUser`` runs first).

    A body parameter would be read and parsed by FastAPI before any dependency runs, so an
    anonymous client could make the server parse whatever it sends; the size is capped before
    this by ``app.core.bodylimit``.
    """
    try:
        return SubmissionCreate.model_validate_json(await request.body())
    except ValidationError as e:
        errors = [{**err, "loc": ("body", *err["loc"])} for err in e.errors(include_url=False)]
        raise RequestValidationError(errors) from e


def _inlined(schema: dict[str, Any]) -> dict[str, Any]:
    """A model's JSON schema with its ``$defs`` inlined, for an OpenAPI request body."""
    defs = schema.pop("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/$defs/"):
                return walk(
                    {
                        **defs[ref.removeprefix("#/$defs/")],
                        **{k: v for k, v in node.items() if k != "$ref"},
                    }
                )
            return {k: walk(v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return dict(walk(schema))


_BODY_DOC: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": _inlined(SubmissionCreate.model_json_schema())}},
    }
}


QUEUED_LATER = (
    "Your submission is saved and queued, but the judge's queue is unreachable right now; "
    "it will be sent when the queue returns. No need to submit again."
)


@router.post(
    "",
    response_model=SubmissionPublic,
    status_code=201,
    openapi_extra=_BODY_DOC,
    responses={202: {"description": "stored; sent to the queue when the broker returns"}},
)
def create_submission(
    data: Annotated[SubmissionCreate, Depends(submission_body)],
    session: SessionDep,
    engine: EngineDep,
    user: CurrentUser,
    registry: RegistryDep,
    settings: SettingsDep,
    enqueue: EnqueueDep,
) -> Any:
    """Sends code to be judged: ``run`` (tests only), ``submit`` (tests, benchmark, leaderboard) or
    ``profile``. Answers at once with the queued submission; follow it with ``GET
    /submissions/{id}`` or its ``/events`` stream."""
    try:
        kind = submissions.validate(
            data, registry.get(data.problem), settings.gpu_kinds, settings.MAX_SOURCE_BYTES
        )
        sub = submissions.create(session, user, data, kind, settings.SUBMISSIONS_PER_MINUTE)
    except submissions.SubmissionError as e:
        raise HTTPException(e.status, str(e)) from e
    assert sub.id is not None
    # No live worker of this GPU kind can grade the language (its self-test failed): answered
    # at once, "not available", counting for nothing (app/unavailable.py); never queued.
    why = workers.reason(session, sub.language, kind)
    if why is not None:
        unavailable.answer(session, sub, why)
        return public(sub, user.username, user)
    out = public(sub, user.username, user)
    if not submissions.send(engine, enqueue, sub.id, kind, sub.mode):
        body = {**out.model_dump(mode="json"), "notice": QUEUED_LATER}
        return JSONResponse(body, status_code=202)
    return out


@router.get("", response_model=list[SubmissionPublic])
def my_submissions(
    session: SessionDep,
    user: CurrentUser,
    problem: str | None = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> Any:
    """The caller's own submissions, newest first; ``problem`` filters, ``limit`` caps (at most
    200)."""
    q = select(Submission).where(Submission.user_id == user.id)
    if problem:
        q = q.where(Submission.problem == problem)
    rows = session.exec(q.order_by(col(Submission.id).desc()).limit(limit)).all()
    return [public(s, user.username, user) for s in rows]


@router.get("/{sub_id}", response_model=SubmissionDetail)
def get_submission(sub_id: int, session: SessionDep, user: OptionalUser) -> Any:
    """One submission: status, verdict and result (cases, benchmark, compile log). Its code and
    messages for its author, admins, its author's instructors, and those who solved the
    problem themselves."""
    sub = session.get(Submission, sub_id)
    if sub is None:
        raise HTTPException(404, "no such submission")
    return detail(session, sub, user)


@router.get(
    "/{sub_id}/profile.ncu-rep",
    response_class=FileResponse,
    responses={200: {"content": {"application/octet-stream": {}}, "description": "the report"}},
)
def get_profile_report(
    sub_id: int, session: SessionDep, user: OptionalUser, settings: SettingsDep
) -> Any:
    """A profile's raw Nsight Compute report, for whoever may see the submission's code."""
    sub = session.get(Submission, sub_id)
    if sub is None or not visibility.may_see_code(session, user, sub):
        raise HTTPException(404, "no profile report for this submission")
    profile = (sub.result or {}).get("profile") or {}
    path = profile_view.report_path(settings.DATA_DIR, profile.get("report_file"))
    if path is None:
        raise HTTPException(404, "no profile report for this submission")
    return FileResponse(
        path,
        media_type="application/octet-stream",
        filename=f"submission-{sub_id}-{sub.problem}.ncu-rep",
    )


def access(engine: Engine, request: Request, sub_id: int) -> tuple[bool, bool, bool] | None:
    """(logged in, may see the code, is an admin) for this request's viewer; None if no such
    submission."""
    with Session(engine) as s:
        sub = s.get(Submission, sub_id)
        if sub is None:
            return None
        viewer = get_optional_user(request, s)
        code = visibility.may_see_code(s, viewer, sub)
        return viewer is not None, code, bool(viewer and viewer.is_admin)


def progress_row(engine: Engine, sub_id: int) -> dict[str, Any] | None:
    """One read of what the progress streams show, shared by all of a submission's streams
    (``app/streams.py``): status, the latest stage, the queue position, the verdict, and both
    forms of its message (``view`` picks the viewer's)."""
    with Session(engine) as s:
        sub = s.get(Submission, sub_id)
        if sub is None:
            return None
        ev: dict[str, Any] = dict(sub.progress or {})
        ev["status"] = sub.status
        ev["attempt"] = sub.attempt
        if sub.status == Status.QUEUED:
            ev["stage"] = "queued"
            ev["queue_position"] = submissions.queue_position(s, sub)
        if sub.status == Status.DONE:
            ev["stage"] = "done"
            ev["verdict"] = sub.verdict
            ev["score_ms"] = sub.score_ms
            ev[_MESSAGES] = (sub.message, visibility.learner_message(sub.result))
        return ev


_MESSAGES = "_messages"  # (the message, the learner's message): never sent as such


def view(row: dict[str, Any], code: bool, admin: bool) -> dict[str, Any]:
    """A shared read as this viewer may see it."""
    ev = {k: v for k, v in row.items() if k != _MESSAGES}
    if _MESSAGES in row:
        message, learner = row[_MESSAGES]
        ev["message"] = visibility.shown_message(ev.get("verdict"), message, learner, code, admin)
    return ev


@router.get("/{sub_id}/events")
async def submission_events(
    sub_id: int, request: Request, engine: EngineDep, settings: SettingsDep
) -> EventSourceResponse:
    """Server-sent events: one ``progress`` event per change, then ``done`` with the verdict.

    For logged-in viewers (others: 401, and they poll). Capped (``app/streams.py``): over a
    cap, 429; after SSE_MAX_S, a ``timeout`` event ends the stream. Either way the client
    polls ``GET /api/v1/submissions/{id}`` instead. A submission's streams share one database
    read per POLL_S (``SharedPoll``).
    """
    seen = await run_in_threadpool(access, engine, request, sub_id)
    if seen is None:
        raise HTTPException(404, "no such submission")
    logged_in, code, admin = seen
    if not logged_in:
        raise HTTPException(401, "live progress is for logged-in viewers; poll the submission")
    slots: StreamSlots = request.app.state.streams
    polls: SharedPoll = request.app.state.polls
    client = request.client.host if request.client else "?"
    refused = slots.acquire(client, sub_id)
    if refused:
        raise HTTPException(429, refused, headers={"Retry-After": "10"})
    polls.join(sub_id)
    poll_url = f"/api/v1/submissions/{sub_id}"
    deadline = time.monotonic() + settings.SSE_MAX_S
    held = [True]

    def release() -> None:  # once, from whichever ends first: the stream or the response
        if held[0]:
            held[0] = False
            slots.release(client, sub_id)
            polls.leave(sub_id)

    async def stream() -> AsyncIterator[dict[str, str]]:
        try:
            last = None
            while not await request.is_disconnected():
                try:
                    row = await polls.get(sub_id)
                except db.UNAVAILABLE:  # the database is down: the page polls (and waits)
                    yield {"event": "timeout", "data": json.dumps({"poll": poll_url})}
                    return
                if row is None:
                    return
                ev = view(row, code, admin)
                data = json.dumps(ev, sort_keys=True)
                if data != last:
                    last = data
                    kind = "done" if ev["status"] == Status.DONE else "progress"
                    yield {"event": kind, "data": data}
                if ev["status"] == Status.DONE:
                    return
                if time.monotonic() > deadline:
                    yield {"event": "timeout", "data": json.dumps({"poll": poll_url})}
                    return
                with anyio.move_on_after(POLL_S):
                    await stopping.wait()
                if stopping.is_set():
                    # The server is stopping (Ctrl-C): end the response properly, telling
                    # the client to poll, rather than leaving it cut mid-stream.
                    yield {"event": "timeout", "data": json.dumps({"poll": poll_url})}
                    return
        finally:
            release()

    stopping = anyio.Event()
    return EventSourceResponse(
        stream(),
        ping=10,
        background=BackgroundTask(release),
        shutdown_event=stopping,
        shutdown_grace_period=2,
    )
