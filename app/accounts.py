"""Accounts in the database: site settings, finding and creating users, admins.

The web app's log-in and sign-up flow (throttling, hashing) is ``app/login_guard.py``.
"""

from __future__ import annotations

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from app.core.security import hash_password
from app.models import SiteConfig, User, UserCreate


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


def username_key(username: str) -> str:
    """The form a username is stored and looked up in."""
    return username.strip()


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
    user = session.exec(select(User).where(User.username == username)).first()
    if user is None:
        UserCreate(username=username, password=password)  # same validation as sign-up
        user = User(username=username, password_hash=hash_password(password), is_admin=True)
    else:
        user.is_admin = True
        user.password_hash = hash_password(password)
    session.add(user)
    session.commit()
    session.refresh(user)
    return user
