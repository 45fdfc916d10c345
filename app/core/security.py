"""Passwords (argon2), personal API tokens (stored as SHA-256) and CSRF tokens."""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import threading

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

# argon2id with RFC 9106's low-memory profile (64 MiB, 3 passes) but one lane instead of four:
# the attacker's cost (memory x passes) is the same, and one hash takes one core instead of
# all of a small server's (hashes made with four lanes still verify: the parameters are in
# the hash). One hash is ~0.15-0.2 s of CPU outside the GIL; a class logging in at once would
# run dozens together and take every core from the pages being served
# (benchmarks/README.md, 'Web under load'): at most half the cores hash at a time, further
# log-ins wait their turn.
_hasher = PasswordHasher(time_cost=3, memory_cost=65536, parallelism=1)
TOKEN_PREFIX = "kd_"
_HASH_SLOTS = threading.BoundedSemaphore(max(1, (os.cpu_count() or 2) // 2))


def hash_password(password: str) -> str:
    """For the CLI and scripts; the web app hashes through ``app.core.hashpool``."""
    with _HASH_SLOTS:
        return hash_password_now(password)


def verify_password(password_hash: str, password: str) -> bool:
    with _HASH_SLOTS:
        return verify_password_now(password_hash, password)


def hash_password_now(password: str) -> str:
    return _hasher.hash(password)


def verify_password_now(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


# A hash to verify against when the user does not exist, so that timing does not tell.
DUMMY_HASH = hash_password(secrets.token_urlsafe(16))


def new_api_token() -> tuple[str, str]:
    """A fresh token and the SHA-256 stored for it."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    return token, hash_token(token)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_csrf_token() -> str:
    return secrets.token_urlsafe(32)


def csrf_matches(expected: str | None, given: str | None) -> bool:
    return bool(expected) and bool(given) and hmac.compare_digest(str(expected), str(given))
