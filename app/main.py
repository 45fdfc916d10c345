"""The FastAPI application: pages, the JSON API under /api/v1, static files, the sweeper."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.middleware.sessions import SessionMiddleware

from app import submissions
from app.api.main import api_router
from app.core.config import Settings, get_settings
from app.core.db import make_engine
from app.pages import errors
from app.pages import router as pages_router
from app.problems import ProblemRegistry

log = logging.getLogger(__name__)
STATIC = Path(__file__).resolve().parent / "static"


def celery_enqueue(sub_id: int, gpu_kind: str) -> None:
    from worker.tasks import enqueue  # the Celery app only: no torch in the web process

    enqueue(sub_id, gpu_kind)


def create_app(
    settings: Settings | None = None, enqueue: Callable[[int, str], None] | None = None
) -> FastAPI:
    settings = settings or get_settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.registry.reload()
        task = asyncio.create_task(_sweeper(app))
        yield
        task.cancel()

    app = FastAPI(
        title="KernelDojo",
        version="0.1.0",
        lifespan=lifespan,
        docs_url="/api/v1/docs",
        redoc_url=None,
        openapi_url="/api/v1/openapi.json",
    )
    app.state.settings = settings
    app.state.engine = make_engine(settings.database_url)
    app.state.registry = ProblemRegistry(settings.PROBLEMS_DIR)
    app.state.enqueue = enqueue if enqueue is not None else celery_enqueue
    app.add_middleware(
        SessionMiddleware,
        secret_key=settings.SECRET_KEY,
        session_cookie="kd_session",
        max_age=settings.SESSION_MAX_AGE_S,
        same_site="lax",
        https_only=settings.secure_cookies,
    )
    app.include_router(api_router, prefix="/api/v1")
    app.include_router(pages_router)
    errors.install(app)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app


async def _sweeper(app: FastAPI) -> None:
    """Every SWEEP_EVERY_S: re-queue submissions whose worker went silent (see submissions.sweep)."""
    s: Settings = app.state.settings
    while True:
        try:
            await run_in_threadpool(
                submissions.sweep,
                app.state.engine,
                s.STUCK_AFTER_S,
                app.state.enqueue,
                s.RESEND_QUEUED_AFTER_S,
            )
        except Exception:
            log.exception("sweep failed")
        await asyncio.sleep(s.SWEEP_EVERY_S)
