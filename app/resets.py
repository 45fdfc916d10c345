"""Password resets by e-mail: a signed, expiring link that works once.

The link carries the user's id and a fingerprint of their current password hash, signed with
the site's secret: it expires after ``MAX_AGE_S`` and stops working as soon as the password
changes (by this link or otherwise), so it is good for one reset. Nothing is stored.
"""

from __future__ import annotations

import hashlib

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlmodel import Session, func, select

from app.core.config import Settings
from app.core.passwords import username_key
from app.models import User

MAX_AGE_S = 3600
SALT = "kerneldojo-password-reset"


class ResetError(ValueError):
    pass


def _signer(settings: Settings) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(settings.SECRET_KEY, salt=SALT)


def _fingerprint(user: User) -> str:
    return hashlib.sha256(user.password_hash.encode()).hexdigest()[:20]


def make_token(settings: Settings, user: User) -> str:
    return _signer(settings).dumps({"u": user.id, "p": _fingerprint(user)})


def user_for_token(settings: Settings, session: Session, token: str) -> User:
    """The user a valid link is for; ResetError saying why not otherwise."""
    try:
        data = _signer(settings).loads(token, max_age=MAX_AGE_S)
    except SignatureExpired as e:
        raise ResetError("this link has expired (links last an hour); ask for a new one") from e
    except BadSignature as e:
        raise ResetError("this link is not valid; ask for a new one") from e
    user = session.get(User, data.get("u")) if isinstance(data, dict) else None
    if user is None or data.get("p") != _fingerprint(user):
        raise ResetError("this link was already used, or the password changed since; ask again")
    return user


def find_for_reset(session: Session, who: str) -> User | None:
    """The account a reset is asked for, by username or e-mail address, if it has an address."""
    who = who.strip()
    if not who:
        return None
    if "@" in who:
        query = select(User).where(func.lower(User.email) == who.lower())
    else:
        query = select(User).where(User.username == username_key(who))
    user = session.exec(query).first()
    return user if user is not None and user.email else None


def mail_body(username: str, link: str) -> str:
    return (
        f"Hello {username},\n\n"
        "Someone (you, we hope) asked to reset your KernelDojo password. To choose a new one,\n"
        f"open this link within an hour:\n\n    {link}\n\n"
        "It works once. If you did not ask, ignore this mail: your password stays as it is.\n"
    )
