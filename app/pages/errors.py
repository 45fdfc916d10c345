"""Errors: JSON for the API (``{"detail": ...}``), a friendly page for everything else."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler, request_validation_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from app import sessions
from app.core.inputs import BadInput
from app.pages.common import render, session_of


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

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        return await request_validation_exception_handler(request, exc)

    # Text or numbers no column can hold (app/core/inputs.py), and text that cannot even be
    # encoded (an unpaired surrogate reaching a hash): the sender's mistake, so a 400.
    @app.exception_handler(BadInput)
    async def bad_input(request: Request, exc: BadInput) -> Response:
        return await http_error(request, StarletteHTTPException(400, str(exc)))

    @app.exception_handler(UnicodeEncodeError)
    async def bad_text(request: Request, exc: UnicodeEncodeError) -> Response:
        detail = "text must be valid Unicode (an unpaired surrogate was sent)"
        return await http_error(request, StarletteHTTPException(400, detail))
