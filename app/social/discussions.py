"""Discussion threads: one per problem (``problem:<slug>``) and one per published solution
(``solution:<id>``). Comments in Markdown (``markup``: sanitised, code folded as a spoiler on
a problem's thread, where readers have not all solved it), replies, votes, editing and
deleting one's own, and moderation by admins: hiding a comment, locking a thread.

A learner posts at most ``PER_MINUTE`` comments a minute and ``PER_HOUR`` an hour: a thread is
read by a whole class, and a script that floods it would bury it. A reply tells the author of
the comment it answers (``notifications``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import delete, func
from sqlmodel import Session, col, select

from app.models import User, utcnow
from app.social import markup, notifications, solutions
from app.social.models import Comment, CommentVote, ThreadLock

BODY_MAX = 10_000
PER_MINUTE = 5
PER_HOUR = 40
MAX_DEPTH = 4  # deeper replies are drawn at this indent


class DiscussionError(ValueError):
    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class CommentView:
    id: int
    user_id: int
    username: str
    parent_id: int | None
    body: str  # Markdown ("" once deleted or, for others than admins, hidden)
    html: str
    votes: int
    voted: bool
    hidden: bool
    deleted: bool
    created_at: datetime
    edited_at: datetime | None
    depth: int = 0
    replies: list[CommentView] = field(default_factory=list)


def problem_thread(slug: str) -> str:
    return f"problem:{slug}"


def solution_thread(sol_id: int) -> str:
    return f"solution:{sol_id}"


def page_of(thread: str) -> str:
    """The page that shows a thread."""
    kind, _, key = thread.partition(":")
    return f"/problems/{key}/discussion" if kind == "problem" else f"/solutions/{key}"


def label_of(thread: str) -> str:
    kind, _, key = thread.partition(":")
    return f"the discussion of {key}" if kind == "problem" else f"published solution {key}"


def check_readable(session: Session, viewer: User | None, thread: str) -> None:
    """A problem's thread is open to everyone; a solution's to the solution's readers."""
    kind, _, key = thread.partition(":")
    if kind == "solution":
        if not key.isdigit():
            raise DiscussionError(f"There is no thread {thread!r}.", 404)
        try:
            solutions.get(session, viewer, int(key))
        except solutions.SolutionError as e:
            raise DiscussionError(str(e), e.status) from e
    elif kind != "problem" or not key:
        raise DiscussionError(f"There is no thread {thread!r}.", 404)


def is_locked(session: Session, thread: str) -> bool:
    return session.get(ThreadLock, thread) is not None


def comments(session: Session, viewer: User | None, thread: str) -> list[CommentView]:
    """The thread's comments as a tree (top-level first, oldest first), flattened in reading
    order with each one's depth."""
    rows = session.exec(
        select(Comment, User.username)
        .join(User, col(User.id) == Comment.user_id)
        .where(col(Comment.thread) == thread)
        .order_by(col(Comment.id))
    ).all()
    ids = [c.id for c, _ in rows]
    counts = dict(
        session.exec(
            select(CommentVote.comment_id, func.count())
            .where(col(CommentVote.comment_id).in_(ids))
            .group_by(col(CommentVote.comment_id))
        ).all()
    )
    mine: set[int] = set()
    if viewer is not None and ids:
        mine = set(
            session.exec(
                select(CommentVote.comment_id).where(
                    col(CommentVote.comment_id).in_(ids), CommentVote.user_id == viewer.id
                )
            ).all()
        )
    admin = bool(viewer and viewer.is_admin)
    spoilers = thread.startswith("problem:")
    views: dict[int, CommentView] = {}
    for c, name in rows:
        assert c.id is not None
        shown = not c.deleted and (admin or not c.hidden)
        body = c.body if shown else ""
        views[c.id] = CommentView(
            c.id, c.user_id, name, c.parent_id, body,
            markup.render(body, spoilers=spoilers) if body else "",
            int(counts.get(c.id, 0)), c.id in mine, c.hidden, c.deleted, c.created_at, c.edited_at,
        )  # fmt: skip
    roots: list[CommentView] = []
    for v in views.values():
        parent = views.get(v.parent_id) if v.parent_id is not None else None
        (parent.replies if parent is not None else roots).append(v)
    out: list[CommentView] = []

    def walk(v: CommentView, depth: int) -> None:
        v.depth = min(depth, MAX_DEPTH)
        out.append(v)
        for r in v.replies:
            walk(r, depth + 1)

    for r in roots:
        walk(r, 0)
    return out


def _check_body(body: str) -> str:
    body = body.strip()
    if not body:
        raise DiscussionError("A comment cannot be empty.")
    if len(body) > BODY_MAX:
        raise DiscussionError(f"A comment is at most {BODY_MAX:,} characters.")
    return body


def _check_rate(session: Session, user: User) -> None:
    now = utcnow()
    for n_max, window, label in (
        (PER_MINUTE, timedelta(minutes=1), "minute"),
        (PER_HOUR, timedelta(hours=1), "hour"),
    ):
        n = session.exec(
            select(func.count())
            .select_from(Comment)
            .where(col(Comment.user_id) == user.id, col(Comment.created_at) > now - window)
        ).one()
        if int(n) >= n_max:
            raise DiscussionError(
                f"You have posted {n_max} comments in the last {label}: wait a little before "
                f"the next (at most {PER_MINUTE} a minute and {PER_HOUR} an hour).",
                429,
            )


def post(
    session: Session, user: User, thread: str, body: str, parent_id: int | None = None
) -> Comment:
    check_readable(session, user, thread)
    if is_locked(session, thread):
        raise DiscussionError("A moderator locked this thread: no new comments.", 403)
    body = _check_body(body)
    parent = None
    if parent_id is not None:
        parent = session.get(Comment, parent_id)
        if parent is None or parent.thread != thread or parent.deleted or parent.hidden:
            raise DiscussionError("The comment you reply to is not in this thread any more.")
    _check_rate(session, user)
    assert user.id is not None
    c = Comment(thread=thread, user_id=user.id, parent_id=parent_id, body=body)
    session.add(c)
    session.flush()
    if parent is not None and parent.user_id != user.id:
        notifications.notify(
            session,
            parent.user_id,
            notifications.REPLY,
            # Not quoting the reply: a moderator may hide it later, its author delete it.
            f"{user.username} replied to your comment on {label_of(thread)}",
            f"{page_of(thread)}#c{c.id}",
        )
    session.commit()
    session.refresh(c)
    return c


def _own(session: Session, user: User, comment_id: int) -> Comment:
    c = session.get(Comment, comment_id)
    if c is None or c.user_id != user.id or c.deleted:
        raise DiscussionError(f"You have no comment {comment_id}.", 404)
    if is_locked(session, c.thread):
        raise DiscussionError("A moderator locked this thread: its comments stay as they are.", 403)
    return c


def edit(session: Session, user: User, comment_id: int, body: str) -> Comment:
    c = _own(session, user, comment_id)
    if c.hidden:
        raise DiscussionError("A moderator hid this comment: it cannot be edited.", 403)
    c.body, c.edited_at = _check_body(body), utcnow()
    session.add(c)
    session.commit()
    return c


def remove(session: Session, user: User, comment_id: int) -> None:
    """Deletes one's own comment: its text goes, its place (and the replies to it) stays."""
    c = _own(session, user, comment_id)
    c.deleted, c.body, c.edited_at = True, "", utcnow()
    session.add(c)
    session.commit()


def vote(session: Session, user: User, comment_id: int, up: bool) -> int:
    c = session.get(Comment, comment_id)
    if c is None or c.deleted or c.hidden:
        raise DiscussionError(f"There is no comment {comment_id}.", 404)
    check_readable(session, user, c.thread)
    if c.user_id == user.id:
        raise DiscussionError("You cannot vote for your own comment.", 403)
    row = session.get(CommentVote, (comment_id, user.id))
    if up and row is None:
        assert user.id is not None
        session.add(CommentVote(comment_id=comment_id, user_id=user.id))
    elif not up and row is not None:
        session.exec(
            delete(CommentVote).where(
                col(CommentVote.comment_id) == comment_id, col(CommentVote.user_id) == user.id
            )
        )
    session.commit()
    n = session.exec(
        select(func.count()).select_from(CommentVote).where(CommentVote.comment_id == comment_id)
    ).one()
    return int(n)


def _admin(user: User) -> None:
    if not user.is_admin:
        raise DiscussionError("Only an admin moderates discussions.", 403)


def set_hidden(session: Session, admin: User, comment_id: int, hidden: bool) -> Comment:
    _admin(admin)
    c = session.get(Comment, comment_id)
    if c is None:
        raise DiscussionError(f"There is no comment {comment_id}.", 404)
    c.hidden = hidden
    session.add(c)
    session.commit()
    return c


def set_locked(session: Session, admin: User, thread: str, locked: bool) -> None:
    _admin(admin)
    check_readable(session, admin, thread)
    row = session.get(ThreadLock, thread)
    if locked and row is None:
        assert admin.id is not None
        session.add(ThreadLock(thread=thread, locked_by=admin.id))
    elif not locked and row is not None:
        session.delete(row)
    session.commit()
