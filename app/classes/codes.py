"""Class invite codes under the invite-code throttle (``app/core/throttle.py``).

A class's code enrols whoever has it, so guessing one must be slow: every lookup of a code
(``POST /classes/join``, the API's join, the ``/join/<code>`` link, accepting it) first checks
the locks, and a wrong code counts a failure against the client's address (``invite-ip``, the
policy sign-up's invite codes use: 5 free, then doubling locks up to 15 min) and, logged in,
against the account (``join-user``). While locked, every attempt is refused with the time to
wait, the right code included, so a guess learns nothing. Sign-up with a class's code is
throttled by ``app/login_guard.py`` under the same address key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.engine import Engine

from app.classes.service import ClassError
from app.core import throttle

T = TypeVar("T")


def keys(ip: str, user_id: int | None) -> list[throttle.Key]:
    out: list[throttle.Key] = [("invite-ip", ip)]
    if user_id is not None:
        out.append(("join-user", str(user_id)))
    return out


def guarded(engine: Engine, ip: str, user_id: int | None, attempt: Callable[[], T]) -> T:
    """``attempt()`` (a lookup or a join) unless locked; a wrong code (a 404) counts."""
    ks = keys(ip, user_id)
    wait = throttle.retry_after(engine, ks)
    if wait:
        raise ClassError(f"too many wrong class codes; try again in {wait} s", 429, wait)
    try:
        return attempt()
    except ClassError as e:
        if e.status == 404:
            throttle.fail(engine, ks)
        raise
