"""The FastAPI application: pages, the JSON API under /api/v1, static files, the sweeper."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import PlainTextResponse
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.middleware.sessions import SessionMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from app import login_guard, submissions
from app.api.main import api_router
from app.api.routes.submissions import POLL_S, progress_row
from app.compete import ticks
from app.core import hosts, throttle
from app.core.bodylimit import BodyLimit
from app.core.config import Settings, get_settings
from app.core.db import make_engine
from app.core.hashpool import HashPool
from app.core.headers import SecurityHeaders
from app.core.inputs import RejectOddUrls
from app.pages import errors
from app.pages import router as pages_router
from app.problems import ProblemRegistry
from app.queue import Enqueue
from app.streams import SharedPoll, StreamSlots

log = logging.getLogger(__name__)
STATIC = Path(__file__).resolve().parent / "static"


def celery_enqueue(sub_id: int, gpu_kind: str, mode: str, requeued: bool = False) -> None:
    from app.queue import enqueue  # the Celery app is made on first use, not at import

    enqueue(sub_id, gpu_kind, mode, requeued)


def create_app(settings: Settings | None = None, enqueue: Enqueue | None = None) -> FastAPI:
    settings = settings or get_settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.registry.reload()
        task = asyncio.create_task(_sweeper(app))
        yield
        task.cancel()
        app.state.hash_pool.close()

    app = FastAPI(
        title="KernelDojo",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,  # app/pages/apidocs.py serves Swagger UI from the static bundle
        redoc_url=None,
        openapi_url="/api/v1/openapi.json",
    )
    app.state.settings = settings
    app.state.engine = make_engine(
        settings.database_url,
        pool_size=settings.DB_POOL_SIZE,
        max_overflow=settings.DB_MAX_OVERFLOW,
    )
    app.state.registry = ProblemRegistry(settings.PROBLEMS_DIR)
    app.state.enqueue = enqueue if enqueue is not None else celery_enqueue
    app.state.streams = StreamSlots(
        settings.SSE_MAX_TOTAL, settings.SSE_MAX_PER_CLIENT, settings.SSE_MAX_PER_SUBMISSION
    )
    # One read per submission and POLL_S, shared by its streams (app/streams.py).
    app.state.polls = SharedPoll(partial(progress_row, app.state.engine), POLL_S)
    app.state.hash_pool = HashPool()
    app.add_middleware(
        SessionMiddleware,
        secret_key=settings.SECRET_KEY,
        session_cookie="kd_session",
        max_age=settings.SESSION_MAX_AGE_S,
        same_site="lax",
        https_only=settings.secure_cookies,
    )
    # Outermost: at most as many requests inside the app as it has database connections.
    app.add_middleware(RequestSlots, slots=_connection_capacity(settings))
    # Outermost of all: a body over the limit is refused before it is read or waits for a slot.
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    # A NUL or non-UTF-8 byte in the URL: 400 before anything reads it.
    app.add_middleware(RejectOddUrls)
    # A Host header outside the trusted list: 400 (app/core/hosts.py).
    app.add_middleware(
        TrustedHostMiddleware, allowed_hosts=hosts.trusted_hosts(settings), www_redirect=False
    )
    # No Location names the host the client claimed (trailing-slash redirects included).
    app.add_middleware(hosts.RelativeRedirects)
    # Around everything, so that refusals (400, 413, 429) carry the headers too.
    app.add_middleware(SecurityHeaders)
    app.include_router(api_router, prefix="/api/v1")
    app.include_router(pages_router)
    errors.install(app)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app


def _connection_capacity(settings: Settings) -> int:
    if settings.database_url.startswith("sqlite"):
        return 15  # SQLAlchemy's default pool: 5 + 10 overflow
    return max(1, settings.DB_POOL_SIZE + settings.DB_MAX_OVERFLOW)


UNSLOTTED_POSTS = frozenset({"/login", "/signup", "/api/v1/auth/login", "/api/v1/auth/signup"})


class RequestSlots:
    """At most ``slots`` requests inside the app at once; the others wait here, in the loop.

    A request holds its pooled database connection from its first query until its session
    closes, across several hops to the thread pool (each sync dependency, then the route).
    With more requests inside than connections, the threads of requests waiting for a
    connection can fill the thread pool while the requests holding the connections wait for
    a thread: nothing moves until the pool's 30 s timeout, then 500s. One web process and a
    burst of log-ins did exactly that (benchmarks/README.md, 'Web under load'). With at most one
    request per connection, and fewer requests than anyio's 40 threads, every request inside
    gets both. Static files and the long-lived progress streams (which take a connection only
    for each short poll) are not counted, nor are log-in and sign-up posts: each hashes for
    ~0.2 s and would hold a slot meanwhile; they bound their own database work and hashing
    instead (app/login_guard.py).
    """

    def __init__(self, app: ASGIApp, slots: int) -> None:
        self.app = app
        self.slots = slots
        self._sem: asyncio.Semaphore | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if (
            scope["type"] != "http"
            or path.startswith("/static/")
            or path.endswith("/events")
            or (scope.get("method") == "POST" and path in UNSLOTTED_POSTS)
        ):
            if scope.get("method") == "POST" and path in UNSLOTTED_POSTS:
                # A full hash queue or an address known to be locked: refused before the
                # body is read (a flood's attempts cost next to nothing).
                refused = login_guard.refuse_early(scope)
                if refused is not None:
                    r = PlainTextResponse(f"{str(refused).capitalize()}.", 429, refused.headers())
                    await r(scope, receive, send)
                    return
            await self.app(scope, receive, send)
            return
        if self._sem is None:
            self._sem = asyncio.Semaphore(self.slots)
        async with self._sem:
            await self.app(scope, receive, send)


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
            await run_in_threadpool(throttle.forget_old, app.state.engine)
            # Contests' reminders, final re-runs and reveals (app/compete/ticks.py).
            await run_in_threadpool(ticks.tick, app.state.engine, app.state.enqueue)
        except Exception:
            log.exception("sweep failed")
        await asyncio.sleep(s.SWEEP_EVERY_S)
