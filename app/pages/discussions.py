"""Discussion pages (issue 40): a problem's thread, and the forms that post, reply, edit,
delete, vote and moderate in any thread (a solution's is drawn on the solution's page); the
notifications page. The rules are app/social/discussions.py's."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import RedirectResponse, Response

from app.deps import RegistryDep, SessionDep
from app.models import User
from app.pages.common import CsrfChecked, PageUser, login_redirect_target, redirect, render
from app.social import discussions, notifications
from app.social.discussions import DiscussionError
from app.social.models import Comment

router = APIRouter(include_in_schema=False)


def _logged_in(user: User | None) -> User:
    if user is None:
        raise HTTPException(401, "Log in first.")
    return user


@router.get("/problems/{slug}/discussion")
def problem_discussion(
    slug: str, request: Request, user: PageUser, session: SessionDep, registry: RegistryDep
) -> Response:
    p = registry.get(slug)
    if p is None:
        raise HTTPException(404, f"There is no problem called “{slug}”.")
    thread = discussions.problem_thread(slug)
    return render(
        request,
        "discussion.html",
        user,
        p=p,
        thread=thread,
        comments=discussions.comments(session, user, thread),
        locked=discussions.is_locked(session, thread),
    )


@router.post("/discussions/post", dependencies=[CsrfChecked])
def post(
    request: Request,
    user: PageUser,
    session: SessionDep,
    thread: Annotated[str, Form(max_length=80)],
    body: Annotated[str, Form()] = "",
    parent_id: Annotated[int | None, Form()] = None,
) -> Response:
    page = discussions.page_of(thread)
    try:
        c = discussions.post(session, _logged_in(user), thread, body, parent_id)
    except DiscussionError as e:
        if e.status == 404:
            raise HTTPException(404, str(e)) from e
        return redirect(request, f"{page}#comment-form", error=str(e))
    return RedirectResponse(f"{page}#c{c.id}", 303)


def _thread_of(session: SessionDep, comment_id: int) -> str:
    c = session.get(Comment, comment_id)
    if c is None:
        raise HTTPException(404, f"There is no comment {comment_id}.")
    return discussions.page_of(c.thread)


@router.post("/comments/{comment_id}/edit", dependencies=[CsrfChecked])
def edit(
    comment_id: int,
    request: Request,
    user: PageUser,
    session: SessionDep,
    body: Annotated[str, Form()] = "",
) -> Response:
    page = _thread_of(session, comment_id)
    try:
        discussions.edit(session, _logged_in(user), comment_id, body)
    except DiscussionError as e:
        return redirect(request, f"{page}#c{comment_id}", error=str(e))
    return RedirectResponse(f"{page}#c{comment_id}", 303)


@router.post("/comments/{comment_id}/delete", dependencies=[CsrfChecked])
def delete(comment_id: int, request: Request, user: PageUser, session: SessionDep) -> Response:
    page = _thread_of(session, comment_id)
    try:
        discussions.remove(session, _logged_in(user), comment_id)
    except DiscussionError as e:
        return redirect(request, page, error=str(e))
    return redirect(request, f"{page}#c{comment_id}", "Comment deleted.")


@router.post("/comments/{comment_id}/vote", dependencies=[CsrfChecked])
def vote(
    comment_id: int,
    request: Request,
    user: PageUser,
    session: SessionDep,
    up: Annotated[int, Form()] = 1,
) -> Response:
    page = _thread_of(session, comment_id)
    try:
        discussions.vote(session, _logged_in(user), comment_id, bool(up))
    except DiscussionError as e:
        return redirect(request, f"{page}#c{comment_id}", error=str(e))
    return RedirectResponse(f"{page}#c{comment_id}", 303)


@router.post("/comments/{comment_id}/hide", dependencies=[CsrfChecked])
def hide(
    comment_id: int,
    request: Request,
    user: PageUser,
    session: SessionDep,
    hidden: Annotated[int, Form()] = 1,
) -> Response:
    page = _thread_of(session, comment_id)
    try:
        discussions.set_hidden(session, _logged_in(user), comment_id, bool(hidden))
    except DiscussionError as e:
        raise HTTPException(e.status, str(e)) from e
    return redirect(request, f"{page}#c{comment_id}", "Hidden." if hidden else "Shown again.")


@router.post("/discussions/lock", dependencies=[CsrfChecked])
def lock(
    request: Request,
    user: PageUser,
    session: SessionDep,
    thread: Annotated[str, Form(max_length=80)],
    locked: Annotated[int, Form()] = 1,
) -> Response:
    try:
        discussions.set_locked(session, _logged_in(user), thread, bool(locked))
    except DiscussionError as e:
        raise HTTPException(e.status, str(e)) from e
    msg = "Thread locked: no new comments." if locked else "Thread unlocked."
    return redirect(request, discussions.page_of(thread), msg)


@router.get("/notifications")
def notification_page(request: Request, user: PageUser, session: SessionDep) -> Response:
    """The newest notifications; those unread until now are marked, then read."""
    if user is None:
        return RedirectResponse(login_redirect_target(request), 303)
    assert user.id is not None
    items = notifications.latest(session, user.id)
    unread = {n.id for n in items if n.read_at is None}
    notifications.mark_read(session, user.id)
    return render(
        request, "notifications.html", user, items=items, unread=unread, unread_notifications=0
    )
