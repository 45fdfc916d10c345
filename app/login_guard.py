"""Log-in and sign-up as the web app runs them: throttled first, hashed off the request slots.

Order matters: a full hash pool is refused first, with no database work; then the throttle
(``app/core/throttle.py``) is read before anything is hashed,
so a locked account or address costs one indexed read and a 429; the password is then
checked in the bounded hash pool (``app/core/hashpool.py``) while the request holds no
database connection and no request slot (``app/main.py``: these routes are not counted).
Database work runs in short hops, at most ``DB_HOPS`` at once, so that a flood of log-ins
cannot take every thread of the pool while other requests hold connections.

A browser that logged in as a user gets a signed device cookie naming that user; its
later log-ins as that user are counted under the device instead of the account and the
address, so an attacker who locks an account (or a shared address) does not lock out the
account's owner on their own browser (OWASP's "device cookies").
"""

from __future__ import annotations

import asyncio
import hmac
import math
import secrets
import time
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import Request, Response
from itsdangerous import BadSignature, URLSafeTimedSerializer
from starlette.concurrency import run_in_threadpool
from starlette.types import Scope

from app import accounts
from app.classes import service as classes
from app.core import throttle
from app.core.hashpool import HashPool, PoolBusy
from app.core.security import DUMMY_HASH
from app.models import User, UserCreate

T = TypeVar("T")
DB_HOPS = 4
DEVICE_COOKIE = "kd_device"
DEVICE_MAX_AGE_S = 365 * 24 * 3600
# One per event loop (tests run several loops in one process).
_hops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


class Throttled(Exception):
    def __init__(self, retry_after: int, message: str) -> None:
        super().__init__(message)
        self.retry_after = retry_after

    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after)}


async def _hop(fn: Callable[..., T], *args: Any) -> T:
    loop = asyncio.get_running_loop()
    sem = _hops.get(loop)
    if sem is None:
        sem = _hops[loop] = asyncio.Semaphore(DB_HOPS)
    async with sem:
        return await run_in_threadpool(fn, *args)


def client_ip(request: Request) -> str:
    """The client's address; behind a proxy, uvicorn sets it from X-Forwarded-For when the
    proxy is trusted (``FORWARDED_ALLOW_IPS``; by default only 127.0.0.1)."""
    return request.client.host if request.client else "unknown"


def _signer(request: Request) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(request.app.state.settings.SECRET_KEY, salt="kd-device")


def _device(request: Request) -> tuple[str, str] | None:
    """(username, device id) from a valid device cookie."""
    raw = request.cookies.get(DEVICE_COOKIE)
    if not raw:
        return None
    try:
        name, dev = _signer(request).loads(raw, max_age=DEVICE_MAX_AGE_S)
    except (BadSignature, ValueError, TypeError):
        return None
    return str(name), str(dev)


def remember_device(request: Request, response: Response, user: User) -> None:
    value = _signer(request).dumps([user.username, secrets.token_urlsafe(12)])
    response.set_cookie(
        DEVICE_COOKIE,
        value,
        max_age=DEVICE_MAX_AGE_S,
        httponly=True,
        samesite="lax",
        secure=request.app.state.settings.secure_cookies,
    )


def _pool(request: Request) -> HashPool:
    pool: HashPool = request.app.state.hash_pool
    return pool


def known_locks(request: Request) -> dict[throttle.Key, float]:
    """Locks this app has read, until they end (``time.monotonic()`` deadlines).

    While a key is locked, attempts under it are refused without a database read (a flood
    from one address is ~100 attempts a second). A lock ends early only by a success under
    it, which a locked key never gets, so the copy is stale on the safe side at worst (a
    device's success clears its account's key, and this copy keeps refusing others)."""
    state = request.app.state
    if not hasattr(state, "known_locks"):
        state.known_locks = {}
    locks: dict[throttle.Key, float] = state.known_locks
    return locks


def refuse_early(scope: Scope) -> Throttled | None:
    """For ``RequestSlots``, before the body is read: a full hash queue, or an address whose
    lock this app already knows (unless the request carries a device cookie, which may
    exempt it: the full check decides)."""
    state = scope["app"].state
    pool: HashPool = state.hash_pool
    if pool.full():
        e = pool.busy_error()
        return Throttled(e.retry_after, str(e))
    if any(k == b"cookie" and DEVICE_COOKIE.encode() in v for k, v in scope.get("headers", [])):
        return None
    ip = (scope.get("client") or ("unknown",))[0]
    kinds = ("login-ip",) if scope.get("path", "").endswith("login") else ("signup-ip", "invite-ip")
    locks: dict[throttle.Key, float] = getattr(state, "known_locks", {})
    left = max((locks.get((kind, ip), 0.0) for kind in kinds), default=0.0) - time.monotonic()
    if left <= 0 and ("login-ip", ip) in getattr(state, "probing", set()):
        left = 1.0  # its lock just ended and one attempt is already testing it
    if left > 0:
        wait = math.ceil(left)
        return Throttled(wait, f"too many failed attempts from your address; try again in {wait} s")
    return None


def _start_probe(request: Request, keys: list[throttle.Key]) -> list[throttle.Key]:
    """When a lock this app saw has just ended, one attempt at a time tests it: the others
    in flight (a flood keeps ~150) are refused until that one fails (and locks the key
    again, for twice as long) or succeeds. Without this, every lock's end let the whole
    flood through to the hash queue at once."""
    state = request.app.state
    if not hasattr(state, "probing"):
        state.probing = set()
    probing: set[throttle.Key] = state.probing
    ended = [k for k in keys if k in known_locks(request)]
    if any(k in probing for k in ended):
        raise Throttled(1, "too many failed log-ins; try again in 1 s")
    probing.update(ended)
    return ended


async def _fail(request: Request, keys: list[throttle.Key]) -> None:
    """Count the failure; remember the locks it set (no database read to learn them)."""
    locked = await _hop(throttle.fail, request.app.state.engine, keys)
    now = time.monotonic()
    known = known_locks(request)
    for k, hold in locked.items():
        known[k] = now + hold


async def _refuse_if_locked(request: Request, keys: list[throttle.Key], what: str) -> None:
    _known_locks = known_locks(request)
    now = time.monotonic()
    cached = max((_known_locks.get(k, 0.0) - now for k in keys), default=0.0)
    if cached <= 0:
        found = await _hop(throttle.locks, request.app.state.engine, keys)
        now = time.monotonic()
        for k, left in found.items():
            _known_locks[k] = now + left
        if len(_known_locks) > 100_000:  # forget ended locks now and then
            for k in [k for k, t in _known_locks.items() if t <= now]:
                del _known_locks[k]
        cached = max(found.values(), default=0.0)
    if cached > 0:
        wait = math.ceil(cached)
        raise Throttled(wait, f"too many {what}; try again in {wait} s")


async def login(request: Request, username: str, password: str) -> User | None:
    """The user, or None for a wrong name or password; ``Throttled`` when refused unchecked."""
    engine = request.app.state.engine
    if _pool(request).full():
        e = _pool(request).busy_error()
        raise Throttled(e.retry_after, str(e))
    name = accounts.username_key(username)
    device = _device(request)
    if device is not None and device[0] == name:
        keys: list[throttle.Key] = [("login-device", device[1])]
    else:
        keys = [("login-user", name), ("login-ip", client_ip(request))]
    probe = _start_probe(request, keys)  # first: a flood after a lock's end costs no read
    try:
        await _refuse_if_locked(request, keys, "failed log-ins")
        user = await _hop(accounts.find_user, engine, name)
        try:
            ok = await _pool(request).verify(user.password_hash if user else DUMMY_HASH, password)
        except PoolBusy as e:
            raise Throttled(e.retry_after, str(e)) from e
        if user is not None and ok:
            cleared = [("login-user", name), *keys]
            await _hop(throttle.clear, engine, cleared)
            for k in cleared:
                known_locks(request).pop(k, None)
            return user
        await _fail(request, keys)
        return None
    finally:
        request.app.state.probing.difference_update(probe)


async def signup(request: Request, data: UserCreate) -> User:
    """A new user (``AccountError`` for a closed site, a wrong code or a taken name)."""
    engine = request.app.state.engine
    ip = client_ip(request)
    await _refuse_if_locked(request, [("signup-ip", ip), ("invite-ip", ip)], "sign-up attempts")
    cfg = await _hop(accounts.site_config_of, engine)
    given = data.invite_code.strip().encode()
    site_code = bool(cfg.invite_code and hmac.compare_digest(given, cfg.invite_code.encode()))
    # A class's invite code (app/classes) also admits, and enrols, the new learner.
    course_id = (
        None
        if site_code or not given
        else await _hop(classes.class_code_of, engine, data.invite_code)
    )
    if not cfg.signups_open and not site_code and course_id is None:
        if given:
            await _fail(request, [("invite-ip", ip)])
            raise accounts.AccountError("that invite code is not right", 403)
        raise accounts.AccountError(
            "sign-ups are closed; ask your instructor for the class invite code", 403
        )
    await _hop(throttle.fail, engine, [("signup-ip", ip)])  # every sign-up counts
    if await _hop(accounts.find_user, engine, data.username):
        raise accounts.AccountError("that username is taken", 409)
    try:
        password_hash = await _pool(request).hash(data.password)
    except PoolBusy as e:
        raise Throttled(e.retry_after, str(e)) from e
    user = await _hop(accounts.create_user, engine, data.username, password_hash)
    if course_id is not None and user.id is not None:
        await _hop(classes.enrol, engine, user.id, course_id)
    return user


async def check_current_password(request: Request, user: User, password: str) -> bool:
    """Before a password change: the same throttle as log-in, under the account's key, so a
    borrowed session cannot be used to guess the password."""
    keys: list[throttle.Key] = [("login-user", user.username)]
    await _refuse_if_locked(request, keys, "wrong passwords")
    try:
        ok = await _pool(request).verify(user.password_hash, password)
    except PoolBusy as e:
        raise Throttled(e.retry_after, str(e)) from e
    if not ok:
        await _fail(request, keys)
    return ok


async def hash_new_password(request: Request, password: str) -> str:
    try:
        return await _pool(request).hash(password)
    except PoolBusy as e:
        raise Throttled(e.retry_after, str(e)) from e
