"""Errors: JSON for the API (``{"detail": ...}``), a friendly page for everything else.

The database unreachable (PostgreSQL down or restarting, its connections refused or cut; SQLite
locked past its busy timeout; the pool exhausted) is not a bug: it answers 503 with
``Retry-After`` and says so, in JSON on the API and on a page elsewhere (rendered without a
database read), instead of a bare 500. Nothing half-done is kept: a request's transaction is
rolled back with its session, so a submission made meanwhile is refused with a message to
submit again (``SUBMISSION_NOT_STORED``), never stored silently or lost silently.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from app import sessions
from app.core import db
from app.core.inputs import BadInput
from app.pages.common import render, session_of

log = logging.getLogger(__name__)
RETRY_AFTER_S = 30
DB_DOWN = (
    "KernelDojo's database is not answering right now, so this was not done. "
    f"Try again in about {RETRY_AFTER_S} s."
)
SUBMISSION_NOT_STORED = (
    "The database is not answering, so your submission was not stored: "
    f"submit it again in about {RETRY_AFTER_S} s."
)


def install(app: FastAPI) -> None:
    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if request.url.path.startswith("/api/") or request.url.path.startswith("/static/"):
            return await http_exception_handler(request, exc)
        with session_of(request) as s:
            user = sessions.current_user(s, request)
            return render(
                request,
                "error.html",
                user,
                status_code=exc.status_code,
                status=exc.status_code,
                detail=exc.detail,
            )

    # FastAPI's own 422 with each error's ``input`` left out: it would echo what was sent back,
    # a password that failed the strength rules among it (and into whatever logs responses).
    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        errors = [{k: v for k, v in err.items() if k != "input"} for err in exc.errors()]
        return JSONResponse(status_code=422, content={"detail": jsonable_encoder(errors)})

    # Text or numbers no column can hold (app/core/inputs.py), and text that cannot even be
    # encoded (an unpaired surrogate reaching a hash): the sender's mistake, so a 400.
    @app.exception_handler(BadInput)
    async def bad_input(request: Request, exc: BadInput) -> Response:
        return await http_error(request, StarletteHTTPException(400, str(exc)))

    async def database_down(request: Request, exc: Exception) -> Response:
        cause = getattr(exc, "orig", None) or exc
        log.error("database unavailable: %s %s: %s", request.method, request.url.path, cause)
        headers = {"Retry-After": str(RETRY_AFTER_S)}
        path = request.url.path
        if path.startswith("/api/"):
            submitting = request.method == "POST" and path.rstrip("/") == "/api/v1/submissions"
            detail = SUBMISSION_NOT_STORED if submitting else DB_DOWN
            return JSONResponse({"detail": detail}, 503, headers)
        page = render(request, "error.html", None, 503, status=503, detail=DB_DOWN)
        page.headers.update(headers)
        return page

    for kind in db.UNAVAILABLE:
        app.add_exception_handler(kind, database_down)

    @app.exception_handler(UnicodeEncodeError)
    async def bad_text(request: Request, exc: UnicodeEncodeError) -> Response:
        detail = "text must be valid Unicode (an unpaired surrogate was sent)"
        return await http_error(request, StarletteHTTPException(400, detail))
