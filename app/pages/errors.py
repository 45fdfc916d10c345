"""Errors: JSON for the API (``{"detail": ...}``), a friendly page for everything else."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler, request_validation_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.models import User
from app.pages.common import render, session_of


def install(app: FastAPI) -> None:
    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if request.url.path.startswith("/api/") or request.url.path.startswith("/static/"):
            return await http_exception_handler(request, exc)
        with session_of(request) as s:
            uid = request.session.get("uid")
            user = s.get(User, uid) if uid is not None else None
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
