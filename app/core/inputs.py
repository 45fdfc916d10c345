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
