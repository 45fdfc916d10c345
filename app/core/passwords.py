"""Password and username rules for sign-up, password changes and admin resets.

Passwords: 8 to 128 characters, not only whitespace, and not easy to guess by zxcvbn's
estimate (Dropbox's strength estimator: common-password lists, dictionary words, names,
keyboard patterns, dates, repeats, l33t spellings, and the username itself): score 2 or
more, i.e. more than about 10^6 guesses. zxcvbn reads the first 72 characters (its limit;
the rest still counts toward the hash).

Usernames: NFKC-normalised and case-folded, then ASCII letters, digits, '-', '_' and '.'
only, so that "Alice", "ａｌｉｃｅ" (full width) and "аlice" (a Cyrillic а) cannot sit beside
"alice": the first two become "alice", the third is refused.
"""

from __future__ import annotations

import re
import unicodedata

from zxcvbn import zxcvbn

MIN_SCORE = 2
_ZXCVBN_MAX = 72
_USERNAME = re.compile(r"[a-z0-9._-]+")


def username_key(username: str) -> str:
    """The form a username is stored and looked up in."""
    return unicodedata.normalize("NFKC", username).casefold().strip()


def check_username(username: str) -> str:
    key = username_key(username)
    if not _USERNAME.fullmatch(key):
        raise ValueError("use letters a-z, digits, '-', '_' or '.' (no spaces or accents)")
    return key


def check_password(password: str, username: str = "") -> None:
    if not password.strip():
        raise ValueError("a password cannot be only spaces")
    result = zxcvbn(password[:_ZXCVBN_MAX], user_inputs=[username] if username else [])
    if result["score"] < MIN_SCORE:
        why = result["feedback"].get("warning") or "This password is easy to guess."
        raise ValueError(
            f"{why.rstrip('.')}; choose a longer one, e.g. three or four unrelated words"
        )
