"""In-app notifications (issue 40): a reply to your comment, your record beaten."""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter
from pydantic import BaseModel

from app.deps import CurrentUser, SessionDep
from app.social import notifications

router = APIRouter(prefix="/notifications", tags=["notifications"])


class NotificationOut(BaseModel):
    id: int
    kind: str
    text: str
    link: str
    created_at: datetime
    read_at: datetime | None


class NotificationsOut(BaseModel):
    unread: int
    items: list[NotificationOut]


class ReadIn(BaseModel):
    ids: list[int] | None = None


class ReadOut(BaseModel):
    marked: int


@router.get("", response_model=NotificationsOut, summary="Your notifications")
def mine(session: SessionDep, user: CurrentUser) -> NotificationsOut:
    """The unread count and the newest notifications, newest first."""
    assert user.id is not None
    return NotificationsOut(
        unread=notifications.unread_count(session, user.id),
        items=[
            NotificationOut.model_validate(n, from_attributes=True)
            for n in notifications.latest(session, user.id)
        ],
    )


@router.post("/read", response_model=ReadOut, summary="Mark notifications read")
def read(body: ReadIn, session: SessionDep, user: CurrentUser) -> ReadOut:
    """Marks the caller's notifications read: those of ``ids``, or all of them."""
    assert user.id is not None
    return ReadOut(marked=notifications.mark_read(session, user.id, body.ids))
