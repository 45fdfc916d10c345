"""Values no database column can hold, refused before they reach the driver.

PostgreSQL refuses NUL characters in text, psycopg cannot encode an unpaired surrogate, and
both databases' integers stop at 2^63 - 1. Any of them in a path (``/users/a%00b``,
``/submissions/9223372036854775808``), a query (``?problem=%00``) or a JSON body
(``"\\ud800"``) used to reach the driver and come back as a 500. ``guard_engine`` checks every
statement's parameters on the way out and raises ``BadInput``, which the app answers with a
400 that says what was wrong (``app/pages/errors.py``); SQLite gets the same rule, so both
databases behave alike. ``clean_text`` is for text the server writes itself from untrusted
output (a submission's messages), which should be stored, not refused.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)


class BadInput(ValueError):
    """Input that cannot be stored or looked up; the message is safe to show."""


def check_value(v: Any) -> None:
    if isinstance(v, str):
        if "\x00" in v:
            raise BadInput("text must not contain NUL characters (\\u0000)")
        try:
            v.encode("utf-8")
        except UnicodeEncodeError:
            raise BadInput("text must be valid Unicode (an unpaired surrogate was sent)") from None
    elif isinstance(v, int) and not isinstance(v, bool) and not INT64_MIN <= v <= INT64_MAX:
        raise BadInput(f"a number is out of range (at most {INT64_MAX})")


def _check_params(params: Any) -> None:
    if isinstance(params, dict):
        values: Iterable[Any] = params.values()
    elif isinstance(params, (list, tuple)):
        values = params
    else:
        values = (params,)
    for v in values:
        if isinstance(v, (dict, list, tuple)):
            _check_params(v)
        else:
            check_value(v)


def _before_execute(
    conn: Any, cursor: Any, statement: str, params: Any, context: Any, executemany: bool
) -> None:
    _check_params(params)


def guard_engine(engine: Engine) -> None:
    event.listen(engine, "before_cursor_execute", _before_execute)


def clean_text(s: str) -> str:
    """``s`` with NUL characters and unpaired surrogates replaced, so that it can be stored."""
    return s.replace("\x00", "\ufffd").encode("utf-8", "replace").decode("utf-8")


class RejectOddUrls:
    """A URL whose path or query carries a NUL character or bytes that are not UTF-8 gets a 400
    before routing. Not every query value reaches the database (``?gpu=%00`` used to fall back
    to the default board with a 200), so the rule is applied to the URL itself."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            why = _odd_url(scope.get("raw_path") or scope["path"].encode(), scope["query_string"])
            if why:
                from starlette.responses import JSONResponse, PlainTextResponse

                api = scope["path"].startswith("/api/")
                response = (
                    JSONResponse({"detail": why}, status_code=400)
                    if api
                    else PlainTextResponse(why, status_code=400)
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _odd_url(path: bytes, query: bytes) -> str | None:
    from urllib.parse import unquote_to_bytes

    for part in (path, query.replace(b"+", b" ")):
        raw = unquote_to_bytes(part)
        if b"\x00" in raw:
            return "the URL must not contain NUL characters (%00)"
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            return "the URL must be valid UTF-8"
    return None
