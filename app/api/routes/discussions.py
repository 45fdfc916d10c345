"""Discussions (issue 40): the comments of a problem's thread and of a published solution's,
posting, replying, editing, deleting, voting, and moderation (admins): app/social/discussions.py."""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, HTTPException, Response
from pydantic import BaseModel, Field

from app.deps import AdminUser, CurrentUser, OptionalUser, RegistryDep, SessionDep
from app.models import User
from app.social import discussions
from app.social.discussions import DiscussionError

router = APIRouter(tags=["discussions"])


class CommentOut(BaseModel):
    id: int
    username: str
    parent_id: int | None
    depth: int
    body: str = Field(description="Markdown; empty once deleted, or hidden by a moderator")
    html: str = Field(description="the body rendered and sanitised")
    votes: int
    voted: bool
    hidden: bool
    deleted: bool
    created_at: datetime
    edited_at: datetime | None


class ThreadOut(BaseModel):
    thread: str
    locked: bool
    comments: list[CommentOut]


class CommentIn(BaseModel):
    body: str = Field(min_length=1, max_length=discussions.BODY_MAX)
    parent_id: int | None = None


class EditIn(BaseModel):
    body: str = Field(min_length=1, max_length=discussions.BODY_MAX)


class VoteIn(BaseModel):
    up: bool = True


class VotesOut(BaseModel):
    votes: int


class FlagIn(BaseModel):
    value: bool = True


def _fail(e: DiscussionError) -> HTTPException:
    return HTTPException(e.status, str(e))


def _thread(session: SessionDep, user: User | None, thread: str) -> ThreadOut:
    try:
        discussions.check_readable(session, user, thread)
    except DiscussionError as e:
        raise _fail(e) from e
    return ThreadOut(
        thread=thread,
        locked=discussions.is_locked(session, thread),
        comments=[
            CommentOut(**{k: getattr(c, k) for k in CommentOut.model_fields})
            for c in discussions.comments(session, user, thread)
        ],
    )


def _problem(registry: RegistryDep, slug: str) -> str:
    if registry.get(slug) is None:
        raise HTTPException(404, f"unknown problem {slug!r}")
    return discussions.problem_thread(slug)


def _post(session: SessionDep, user: User, thread: str, body: CommentIn) -> CommentOut:
    try:
        c = discussions.post(session, user, thread, body.body, body.parent_id)
    except DiscussionError as e:
        raise _fail(e) from e
    mine = [x for x in discussions.comments(session, user, thread) if x.id == c.id]
    return CommentOut(**{k: getattr(mine[0], k) for k in CommentOut.model_fields})


@router.get("/problems/{slug}/comments", response_model=ThreadOut, summary="A problem's discussion")
def problem_comments(
    slug: str, session: SessionDep, registry: RegistryDep, user: OptionalUser
) -> ThreadOut:
    """The problem's thread, in reading order (replies under what they answer, with depth)."""
    return _thread(session, user, _problem(registry, slug))


@router.post(
    "/problems/{slug}/comments",
    response_model=CommentOut,
    status_code=201,
    summary="Comment on a problem",
)
def problem_comment(
    slug: str, body: CommentIn, session: SessionDep, registry: RegistryDep, user: CurrentUser
) -> CommentOut:
    """Posts a comment (``parent_id``: a reply) on the problem's thread; 429 past the rate
    limit, 403 on a locked thread."""
    return _post(session, user, _problem(registry, slug), body)


@router.get(
    "/solutions/{sol_id}/comments", response_model=ThreadOut, summary="A solution's discussion"
)
def solution_comments(sol_id: int, session: SessionDep, user: OptionalUser) -> ThreadOut:
    """The thread of a published solution: for those who may read the solution."""
    return _thread(session, user, discussions.solution_thread(sol_id))


@router.post(
    "/solutions/{sol_id}/comments",
    response_model=CommentOut,
    status_code=201,
    summary="Comment on a solution",
)
def solution_comment(
    sol_id: int, body: CommentIn, session: SessionDep, user: CurrentUser
) -> CommentOut:
    """Posts a comment (``parent_id``: a reply) on a published solution's thread."""
    return _post(session, user, discussions.solution_thread(sol_id), body)


@router.patch("/comments/{comment_id}", status_code=204, summary="Edit your comment")
def edit(comment_id: int, body: EditIn, session: SessionDep, user: CurrentUser) -> Response:
    """Replaces the text of the caller's own comment."""
    try:
        discussions.edit(session, user, comment_id, body.body)
    except DiscussionError as e:
        raise _fail(e) from e
    return Response(status_code=204)


@router.delete("/comments/{comment_id}", status_code=204, summary="Delete your comment")
def remove(comment_id: int, session: SessionDep, user: CurrentUser) -> Response:
    """Deletes the caller's own comment (the replies to it stay)."""
    try:
        discussions.remove(session, user, comment_id)
    except DiscussionError as e:
        raise _fail(e) from e
    return Response(status_code=204)


@router.put("/comments/{comment_id}/vote", response_model=VotesOut, summary="Vote for a comment")
def vote(comment_id: int, body: VoteIn, session: SessionDep, user: CurrentUser) -> VotesOut:
    """Adds (``up``: true) or takes back the caller's vote; not on one's own comment."""
    try:
        return VotesOut(votes=discussions.vote(session, user, comment_id, body.up))
    except DiscussionError as e:
        raise _fail(e) from e


@router.put("/admin/comments/{comment_id}/hidden", status_code=204, summary="Hide a comment")
def hide(comment_id: int, body: FlagIn, session: SessionDep, admin: AdminUser) -> Response:
    """Admins: hides (``value``: true) or shows again a comment."""
    try:
        discussions.set_hidden(session, admin, comment_id, body.value)
    except DiscussionError as e:
        raise _fail(e) from e
    return Response(status_code=204)


@router.put("/admin/threads/{thread}/locked", status_code=204, summary="Lock a thread")
def lock(thread: str, body: FlagIn, session: SessionDep, admin: AdminUser) -> Response:
    """Admins: locks (``value``: true) or unlocks a thread, ``problem:<slug>`` or
    ``solution:<id>``: no new comment, edit or deletion while locked."""
    try:
        discussions.set_locked(session, admin, thread, body.value)
    except DiscussionError as e:
        raise _fail(e) from e
    return Response(status_code=204)
