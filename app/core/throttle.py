"""Throttling of log-in, sign-up and invite-code attempts, kept in the database.

Each attempt is checked against a few keys (the account, the client's address, a known
device) *before* any password is hashed, so a flood is answered 429 for the price of one
indexed read. A key gets ``free`` failures; each failure after that locks it for
``base_s * 2**k`` seconds, capped at ``cap_s``. Attempts made while a key is locked are
refused without counting, so hammering does not lengthen a lock: an attacker who knows a
victim's username can hold that account's lock at ``cap_s`` only by guessing once per
``cap_s``, and the victim's own browser, which carries a device cookie from an earlier
log-in (``app/login_guard.py``), is not subject to the account's or the address's lock.
Counts are forgotten ``window_s`` after the last failure.

The database rather than Redis: the embedded default has no Redis, and several web
processes must share the counts; one code path serves both.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import ColumnElement, case, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, delete, select

from app.models import Throttle, utcnow


@dataclass(frozen=True)
class Policy:
    free: int  # failures allowed before the first lock
    base_s: float  # the first lock
    cap_s: float  # the longest lock
    window_s: float  # failures are forgotten this long after the last one


# Accounts: a few typos, then 1 s, 2 s, 4 s ... at most 15 min (about 100 guesses a day).
# Addresses: a class behind one NAT shares one; 30 failures before the first lock.
# Devices: a browser that logged in before; its own, looser count.
POLICIES: dict[str, Policy] = {
    "login-user": Policy(free=5, base_s=1, cap_s=900, window_s=86400),
    "login-ip": Policy(free=30, base_s=1, cap_s=300, window_s=3600),
    "login-device": Policy(free=10, base_s=1, cap_s=300, window_s=3600),
    "signup-ip": Policy(free=60, base_s=2, cap_s=600, window_s=3600),
    "invite-ip": Policy(free=5, base_s=2, cap_s=900, window_s=86400),
    # Class invite codes typed by a logged-in learner (app/classes/codes.py), per account, on
    # top of the address's invite-ip: an account that changes addresses is still slowed.
    "join-user": Policy(free=10, base_s=2, cap_s=900, window_s=86400),
    # Password-reset mails, each counted as it is asked for: a few per account and per
    # address, then minutes apart, so that nobody's mailbox is flooded from here.
    "reset-user": Policy(free=3, base_s=300, cap_s=3600, window_s=86400),
    "reset-ip": Policy(free=10, base_s=60, cap_s=3600, window_s=3600),
}

Key = tuple[str, str]  # (policy name, value), e.g. ("login-user", "alice")


def _name(key: Key) -> str:
    kind, value = key
    if kind not in POLICIES:
        raise KeyError(f"no throttle policy {kind!r}")
    return f"{kind}:{value}"[:200]


def _aware(d: datetime) -> datetime:
    return d if d.tzinfo else d.replace(tzinfo=UTC)


def lock_s(policy: Policy, failures: int) -> float:
    """How long a key stays locked after its ``failures``-th failure (0: not locked)."""
    over = failures - policy.free
    if over <= 0:
        return 0.0
    return float(min(policy.cap_s, policy.base_s * 2 ** min(over - 1, 40)))


def locks(engine: Engine, keys: list[Key], now: datetime | None = None) -> dict[Key, float]:
    """The keys that are locked, with the seconds left."""
    now = now or utcnow()
    by_name = {_name(k): k for k in keys}
    with Session(engine) as s:
        rows = s.exec(select(Throttle).where(col(Throttle.key).in_(list(by_name)))).all()
    out: dict[Key, float] = {}
    for r in rows:
        if r.locked_until is not None:
            left = (_aware(r.locked_until) - now).total_seconds()
            if left > 0:
                out[by_name[r.key]] = left
    return out


def retry_after(engine: Engine, keys: list[Key], now: datetime | None = None) -> int:
    """Seconds until every key is free (0: go ahead)."""
    left = locks(engine, keys, now)
    return math.ceil(max(left.values())) if left else 0


def fail(engine: Engine, keys: list[Key], now: datetime | None = None) -> dict[Key, float]:
    """Count one failure under each key; lock those past their free allowance (returned,
    with the lock's seconds)."""
    now = now or utcnow()
    locked: dict[Key, float] = {}
    with Session(engine) as s:
        insert = pg_insert if engine.dialect.name == "postgresql" else sqlite_insert
        for key in keys:
            policy = POLICIES[key[0]]
            name = _name(key)
            s.execute(
                insert(Throttle)
                .values(key=name, failures=0, last_failure_at=now, locked_until=None)
                .on_conflict_do_nothing(index_elements=["key"])
            )
            # One statement, so concurrent failures each count (and SQLite takes its write
            # lock at once instead of failing to upgrade a read).
            stale = now - timedelta(seconds=policy.window_s)
            failures = s.execute(
                update(Throttle)
                .where(col(Throttle.key) == name)
                .values(
                    failures=_count_expr(stale),
                    last_failure_at=now,
                )
                .returning(col(Throttle.failures))
            ).scalar_one()
            hold = lock_s(policy, failures)
            if hold > 0:
                locked[key] = hold
                s.execute(
                    update(Throttle)
                    .where(col(Throttle.key) == name)
                    .values(locked_until=now + timedelta(seconds=hold))
                )
        s.commit()
    return locked


def _count_expr(stale: datetime) -> ColumnElement[int]:
    """1 when the last failure is older than the window, else one more than before."""
    return case(
        (col(Throttle.last_failure_at) < stale, 1),
        else_=col(Throttle.failures) + 1,
    )


def clear(engine: Engine, keys: list[Key]) -> None:
    """Forget the failures under these keys (after a successful log-in)."""
    with Session(engine) as s:
        s.execute(delete(Throttle).where(col(Throttle.key).in_([_name(k) for k in keys])))
        s.commit()


def forget_old(engine: Engine, now: datetime | None = None) -> int:
    """Delete keys idle past every window (called by the sweeper)."""
    now = now or utcnow()
    longest = max(p.window_s for p in POLICIES.values())
    with Session(engine) as s:
        result = s.execute(
            delete(Throttle).where(
                col(Throttle.last_failure_at) < now - timedelta(seconds=longest),
                (col(Throttle.locked_until).is_(None)) | (col(Throttle.locked_until) < now),
            )
        )
        s.commit()
    return int(getattr(result, "rowcount", 0) or 0)
