"""Issue 18.1: log-in floods are throttled before hashing, and hashing stays off the slots."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.core import throttle
from app.core.hashpool import HashPool, PoolBusy
from app.core.security import hash_password_now
from app.models import Throttle, utcnow
from tests.app.conftest import signup

GOOD = "kernel-dojo-pass"


def _login(c: TestClient, password: str, name: str = "alice") -> httpx.Response:
    return c.post("/api/v1/auth/login", json={"username": name, "password": password})


class CountingPool(HashPool):
    def __init__(self) -> None:
        super().__init__(workers=1, queue=10)
        self.calls = 0

    async def verify(self, password_hash: str, password: str) -> bool:
        self.calls += 1
        return await super().verify(password_hash, password)


def _unlock(engine: Engine, app: object = None) -> None:
    """As if the lock had run out (in the database and in the app's copy of it)."""
    if app is not None:
        app.state.known_locks = {}  # type: ignore[attr-defined]
    with Session(engine) as s:
        for row in s.exec(select(Throttle)).all():
            row.locked_until = utcnow() - timedelta(seconds=1)
            s.add(row)
        s.commit()


def test_wrong_passwords_lock_the_account_before_any_hash(
    client: TestClient, engine: Engine
) -> None:
    signup(client, password=GOOD)
    pool = CountingPool()
    client.app.state.hash_pool = pool  # type: ignore[attr-defined]
    attacker = TestClient(client.app)
    for _ in range(throttle.POLICIES["login-user"].free + 1):
        assert _login(attacker, "wrong-guess").status_code == 401
    hashed = pool.calls
    r = _login(attacker, GOOD)  # even the right password: the account is locked
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    assert "too many failed log-ins" in r.json()["detail"]
    assert pool.calls == hashed  # refused without hashing
    _unlock(engine, client.app)
    assert _login(attacker, GOOD).status_code == 200
    with Session(engine) as s:  # a success forgets the account's failures
        assert s.get(Throttle, "login-user:alice") is None


def test_login_form_answers_429_with_retry_after(client: TestClient, engine: Engine) -> None:
    signup(client, password=GOOD)
    for _ in range(11):  # 6 over the free 5: locked for 2**5 s
        throttle.fail(engine, [("login-user", "alice")])
    attacker = TestClient(client.app)
    page = attacker.get("/login").text
    tok = page.split('name="csrf_token" value="')[1].split('"')[0]
    r = attacker.post("/login", data={"csrf_token": tok, "username": "alice", "password": GOOD})
    assert r.status_code == 429 and "Too many failed log-ins" in r.text
    assert 30 <= int(r.headers["Retry-After"]) <= 32


def test_a_locked_account_still_lets_its_owner_in_on_a_known_browser(
    client: TestClient,
) -> None:
    csrf = signup(client, password=GOOD)  # this browser now carries a device cookie
    client.post("/api/v1/auth/logout", headers={"X-CSRF-Token": csrf})
    attacker = TestClient(client.app)
    for _ in range(8):
        _login(attacker, "wrong-guess")
    assert _login(attacker, GOOD).status_code == 429
    assert _login(client, GOOD).status_code == 200  # the owner's browser is not locked out


def test_one_address_guessing_many_accounts_is_locked(
    client: TestClient, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    for i in range(throttle.POLICIES["login-ip"].free + 1):
        assert _login(client, "wrong-guess", name=f"user{i}").status_code == 401
    r = _login(client, "wrong-guess", name="someone-else")
    assert r.status_code == 429 and "Retry-After" in r.headers
    # Once read, the lock is kept by the app: further attempts cost no database read.
    reads = []
    real = throttle.locks
    monkeypatch.setattr(throttle, "locks", lambda *a: reads.append(a) or real(*a))
    for _ in range(5):
        r = _login(client, "wrong-guess", name="someone-else")
        assert r.status_code == 429 and "from your address" in r.text  # before the body is read
    assert reads == []


def test_when_a_lock_ends_one_attempt_tests_it_and_the_flood_waits(
    client: TestClient, engine: Engine
) -> None:
    """The end of an address's lock lets one attempt through, not the whole flood."""
    app = client.app
    ip = "10.9.8.7"
    for _ in range(throttle.POLICIES["login-ip"].free + 1):
        throttle.fail(engine, [("login-ip", ip)])

    async def flood(n: int) -> list[int]:
        transport = httpx.ASGITransport(app=app, client=(ip, 4321))
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            rs = await asyncio.gather(
                *(
                    c.post("/api/v1/auth/login", json={"username": f"v{i}", "password": "nope-x"})
                    for i in range(n)
                )
            )
            return [r.status_code for r in rs]

    assert set(asyncio.run(flood(5))) == {429}  # locked: the app now knows it
    _unlock(engine)  # the lock ends in the database ...
    app.state.known_locks = {k: 0.0 for k in app.state.known_locks}  # type: ignore[attr-defined]
    codes = asyncio.run(flood(12))  # ... and in the app's copy
    assert codes.count(401) == 1 and codes.count(429) == 11  # one probe was hashed
    assert throttle.retry_after(engine, [("login-ip", ip)]) >= 2  # locked again, for longer


def test_backoff_doubles_up_to_the_cap_and_is_forgotten(engine: Engine) -> None:
    p = throttle.POLICIES["login-user"]
    key = ("login-user", "bob")
    t0 = utcnow()
    waits = []
    for i in range(p.free + 12):
        now = t0 + timedelta(hours=i / 100)
        throttle.fail(engine, [key], now=now)
        waits.append(throttle.retry_after(engine, [key], now=now))
    assert waits[: p.free] == [0] * p.free
    assert waits[p.free : p.free + 4] == [1, 2, 4, 8]
    assert max(waits) == p.cap_s
    # A day after the last failure the count starts again.
    later = t0 + timedelta(seconds=p.window_s + 3600)
    throttle.fail(engine, [key], now=later)
    assert throttle.retry_after(engine, [key], now=later) == 0


def test_concurrent_failures_all_count(engine: Engine) -> None:
    key = ("login-ip", "10.0.0.9")
    threads = [threading.Thread(target=throttle.fail, args=(engine, [key])) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with Session(engine) as s:
        row = s.get(Throttle, "login-ip:10.0.0.9")
        assert row is not None and row.failures == 12


def test_hash_pool_refuses_beyond_its_queue() -> None:
    h = hash_password_now("x-y-z-w-v")

    async def main() -> list[object]:
        pool = HashPool(workers=1, queue=1)
        try:
            return await asyncio.gather(
                *(pool.verify(h, "wrong") for _ in range(4)), return_exceptions=True
            )
        finally:
            pool.close()

    out = asyncio.run(main())
    assert out[:2] == [False, False]
    assert all(isinstance(x, PoolBusy) and x.retry_after >= 1 for x in out[2:])


def test_hash_slots_hold_across_pools() -> None:
    """Two web processes' pools share the machine's slots: one waits while the other hashes."""
    from app.core.hashpool import _machine_slot

    h = hash_password_now("x-y-z-w-v")
    pool = HashPool(workers=1)
    try:
        with _machine_slot(pool._slots):  # another process's hash in progress
            fut = pool._executor.submit(pool._verify, h, "wrong")
            with pytest.raises(TimeoutError):
                fut.result(timeout=0.5)
        assert fut.result(timeout=30) is False
    finally:
        pool.close()


def test_hashing_threads_run_below_the_pages_priority() -> None:
    import os
    import threading

    from app.core.hashpool import HASH_NICE

    pool = HashPool(workers=1)
    try:
        nice = pool._executor.submit(
            lambda: os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        ).result()
    finally:
        pool.close()
    assert nice == os.getpriority(os.PRIO_PROCESS, 0) + HASH_NICE or nice == HASH_NICE


@pytest.mark.timeout(120)
def test_a_login_flood_gets_429s_while_pages_are_served(client: TestClient) -> None:
    """Log-ins wait for the hash pool outside the request slots: pages go on being served."""
    app = client.app
    app.state.hash_pool = HashPool(workers=1, queue=2)  # type: ignore[attr-defined]

    async def main() -> tuple[list[int], int, float]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            logins = [
                c.post("/api/v1/auth/login", json={"username": f"u{i}", "password": "nope-nope"})
                for i in range(20)
            ]
            flood = asyncio.gather(*logins)
            await asyncio.sleep(0.05)
            t0 = asyncio.get_running_loop().time()
            page = await c.get("/api/v1/problems")
            page_s = asyncio.get_running_loop().time() - t0
            rs = await flood
            return [r.status_code for r in rs], page.status_code, page_s

    codes, page_code, page_s = asyncio.run(main())
    assert page_code == 200
    assert set(codes) <= {401, 429} and codes.count(429) >= 10
    # 20 hashes in a row would take ~3 s; the page did not wait for them.
    assert page_s < 1.5
