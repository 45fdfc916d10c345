"""Sign-up and log-in rules shared by the HTML forms and the JSON API."""

from __future__ import annotations

from sqlmodel import Session, select

from app.core.security import DUMMY_HASH, hash_password, verify_password
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


def signup(session: Session, data: UserCreate) -> User:
    cfg = site_config(session)
    code_ok = bool(cfg.invite_code) and data.invite_code.strip() == cfg.invite_code
    if not cfg.signups_open and not code_ok:
        raise AccountError(
            "sign-ups are closed; ask your instructor for the class invite code", 403
        )
    if session.exec(select(User).where(User.username == data.username)).first():
        raise AccountError("that username is taken", 409)
    user = User(username=data.username, password_hash=hash_password(data.password))
    session.add(user)
    session.commit()
    session.refresh(user)
    return user


def authenticate(session: Session, username: str, password: str) -> User | None:
    user = session.exec(select(User).where(User.username == username)).first()
    # The hash below is slow on purpose: end the read transaction first, so that the database
    # connection goes back to the pool instead of waiting with it (the user stays loaded).
    if user is not None:
        session.expunge(user)
    session.rollback()
    if user is None:
        verify_password(DUMMY_HASH, password)  # same time whether or not the user exists
        return None
    return user if verify_password(user.password_hash, password) else None


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
