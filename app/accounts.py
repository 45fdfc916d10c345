"""Accounts in the database: site settings, finding and creating users, admins.

The web app's log-in and sign-up flow (throttling, hashing) is ``app/login_guard.py``.
"""

from __future__ import annotations

import secrets

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from app.core import passwords
from app.core.security import hash_password
from app.models import SiteConfig, SiteConfigUpdate, User, UserCreate


class AccountError(ValueError):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def site_config(session: Session) -> SiteConfig:
    cfg = session.exec(select(SiteConfig)).first()
    if cfg is None:
        cfg = SiteConfig()
        session.add(cfg)
        session.commit()
        session.refresh(cfg)
    return cfg


# No look-alikes (0/o, 1/l/i): the code is read off a slide and typed.
_INVITE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def new_invite_code() -> str:
    """16 random characters in four groups (about 79 bits): not guessable, even unthrottled."""
    chars = "".join(secrets.choice(_INVITE_ALPHABET) for _ in range(16))
    return "-".join(chars[i : i + 4] for i in range(0, 16, 4))


def apply_signup_settings(session: Session, data: SiteConfigUpdate) -> SiteConfig:
    cfg = site_config(session)
    cfg.signups_open = data.signups_open
    cfg.invite_code = new_invite_code() if data.generate_invite_code else data.invite_code
    session.add(cfg)
    session.commit()
    session.refresh(cfg)
    return cfg


username_key = passwords.username_key


def site_config_of(engine: Engine) -> SiteConfig:
    with Session(engine) as session:
        cfg = site_config(session)
        session.expunge(cfg)
        return cfg


def find_user(engine: Engine, username: str) -> User | None:
    with Session(engine) as session:
        user = session.exec(select(User).where(User.username == username_key(username))).first()
        if user is not None:
            session.expunge(user)
        return user


def create_user(engine: Engine, username: str, password_hash: str) -> User:
    with Session(engine) as session:
        user = User(username=username_key(username), password_hash=password_hash)
        session.add(user)
        try:
            session.commit()
        except IntegrityError as e:  # the same name signed up meanwhile
            raise AccountError("that username is taken", 409) from e
        session.refresh(user)
        session.expunge(user)
        return user


def create_admin(session: Session, username: str, password: str) -> User:
    """``kerneldojo admin create``: a new admin, or promote (and re-password) an existing user."""
    data = UserCreate(username=username, password=password)  # same rules as sign-up
    user = session.exec(select(User).where(User.username == data.username)).first()
    if user is None:
        user = User(username=data.username, password_hash=hash_password(password), is_admin=True)
    else:
        user.is_admin = True
        user.password_hash = hash_password(password)
    session.add(user)
    session.commit()
    session.refresh(user)
    return user


def set_password(
    session: Session, user: User, password_hash: str, revoke_tokens: bool = True
) -> None:
    """A new password; every session of the user ends (the caller may start a fresh one),
    and every personal API token with them unless the user chose to keep theirs."""
    from app import sessions  # sessions imports nothing of ours but models

    assert user.id is not None
    user.password_hash = password_hash
    session.add(user)
    session.commit()
    sessions.revoke_all(session, user.id)
    if revoke_tokens:
        sessions.revoke_tokens(session, user.id)
