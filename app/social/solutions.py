"""Published solutions: an accepted submission made public by its author, with a write-up.

Who reads them: admins, the author, and learners who solved the problem or gave up and opened
its editorial (``EditorialOpened``). As for code on the leaderboard (app/visibility.py),
kernel-track code (Triton, CUDA, ...) needs a kernel-track acceptance; a learner who solved the
problem only with PyTorch reads the PyTorch solutions. Giving up opens everything, as the
editorial does. The verdict, time and percent of speed of light shown beside a write-up are
the submission's stored result; the author types only the title and the write-up.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func
from sqlmodel import Session, col, select

from app import visibility
from app.models import Mode, Status, Submission, User, utcnow
from app.profile_stats import sol_pct
from app.social.models import EditorialOpened, PublishedSolution, SolutionVote

TITLE_MAX = 120
WRITEUP_MAX = 20_000
SORTS = ("votes", "speed")
ALL, FRAMEWORK = "all", "framework"


class SolutionError(ValueError):
    """Refused, with the HTTP status a route answers and a message for the learner."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class SolutionView:
    id: int
    problem: str
    title: str
    username: str
    user_id: int
    submission_id: int
    language: str
    gpu_kind: str
    verdict: str | None
    score_ms: float | None
    sol_pct: float | None
    votes: int
    voted: bool
    published: bool
    hidden: bool
    created_at: datetime
    updated_at: datetime
    writeup: str = ""  # Markdown, on the solution's own page
    source: str = ""


def gave_up(session: Session, user_id: int, problem: str) -> bool:
    return session.get(EditorialOpened, (user_id, problem)) is not None


def give_up(session: Session, user: User, problem: str) -> None:
    """Records that ``user`` gave up on ``problem`` and opened its editorial (once)."""
    assert user.id is not None
    if not gave_up(session, user.id, problem):
        session.add(EditorialOpened(user_id=user.id, problem=problem))
        session.commit()


def access(session: Session, viewer: User | None, problem: str) -> str | None:
    """``all`` (every published solution), ``framework`` (the framework track's), or None."""
    if viewer is None or viewer.id is None:
        return None
    if viewer.is_admin or gave_up(session, viewer.id, problem):
        return ALL
    if visibility.has_solved(session, viewer.id, problem, visibility.KERNEL):
        return ALL
    if visibility.has_solved(session, viewer.id, problem):
        return FRAMEWORK
    return None


def refusal(problem: str) -> str:
    return (
        f"Published solutions of {problem} open once you have solved it (or given up and opened "
        "its editorial)."
    )


def _may_read(level: str | None, language: str) -> bool:
    if level == ALL:
        return True
    return level == FRAMEWORK and visibility.track_of(language) != visibility.KERNEL


def _shown(sol: PublishedSolution, sub: Submission) -> bool:
    """Shown to readers: published, not hidden, and its submission still an acceptance of
    record (an admin may hide a rule-breaking submission, a rejudge may change its verdict)."""
    return (
        sol.published
        and not sol.hidden
        and not sub.hidden
        and sub.verdict == "accepted"
        and sub.status == Status.DONE
    )


def _view(
    session: Session, sol: PublishedSolution, sub: Submission, name: str, viewer: User | None
) -> SolutionView:
    assert sol.id is not None
    votes = session.exec(
        select(func.count()).select_from(SolutionVote).where(SolutionVote.solution_id == sol.id)
    ).one()
    voted = bool(viewer and session.get(SolutionVote, (sol.id, viewer.id)))
    return SolutionView(
        sol.id, sol.problem, sol.title, name, sol.user_id, sol.submission_id, sub.language,
        sub.gpu_kind, sub.verdict, sub.score_ms, sol_pct(sub.result_json), int(votes), voted,
        sol.published, sol.hidden, sol.created_at, sol.updated_at,
    )  # fmt: skip


def listing(
    session: Session, viewer: User | None, problem: str, sort: str = "votes"
) -> list[SolutionView]:
    """The published solutions of a problem this viewer may read, best first."""
    if sort not in SORTS:
        raise SolutionError(f"sort by one of {', '.join(SORTS)}, not {sort!r}")
    level = access(session, viewer, problem)
    if level is None:
        raise SolutionError(refusal(problem), 403)
    rows = session.exec(
        select(PublishedSolution, Submission, User.username)
        .join(Submission, col(Submission.id) == PublishedSolution.submission_id)
        .join(User, col(User.id) == PublishedSolution.user_id)
        .where(col(PublishedSolution.problem) == problem, col(PublishedSolution.published))
    ).all()
    admin = bool(viewer and viewer.is_admin)
    out = [
        _view(session, sol, sub, name, viewer)
        for sol, sub, name in rows
        if _may_read(level, sub.language) and (admin or _shown(sol, sub))
    ]
    if sort == "speed":
        out.sort(key=lambda v: (v.score_ms is None, v.score_ms or 0.0, -v.votes, v.id))
    else:
        out.sort(key=lambda v: (-v.votes, v.score_ms is None, v.score_ms or 0.0, v.id))
    return out


def get(session: Session, viewer: User | None, sol_id: int) -> SolutionView:
    """One solution with its write-up and code, if this viewer may read it."""
    row = session.exec(
        select(PublishedSolution, Submission, User.username)
        .join(Submission, col(Submission.id) == PublishedSolution.submission_id)
        .join(User, col(User.id) == PublishedSolution.user_id)
        .where(col(PublishedSolution.id) == sol_id)
    ).first()
    missing = SolutionError(f"There is no published solution {sol_id}.", 404)
    if row is None:
        raise missing
    sol, sub, name = row
    author = viewer is not None and viewer.id == sol.user_id
    admin = bool(viewer and viewer.is_admin)
    if not author and not admin:
        if not _shown(sol, sub):
            raise missing
        if not _may_read(access(session, viewer, sol.problem), sub.language):
            raise SolutionError(refusal(sol.problem), 403)
    view = _view(session, sol, sub, name, viewer)
    view.writeup, view.source = sol.writeup, sub.source
    return view


def publishable(session: Session, user: User, problem: str | None = None) -> list[Submission]:
    """The user's accepted, ranked submissions (of ``problem``), newest first."""
    where = [
        col(Submission.user_id) == user.id,
        col(Submission.mode) == Mode.SUBMIT,
        col(Submission.verdict) == "accepted",
        col(Submission.status) == Status.DONE,
        col(Submission.hidden).is_(False),
    ]
    if problem:
        where.append(col(Submission.problem) == problem)
    return list(
        session.exec(select(Submission).where(*where).order_by(col(Submission.id).desc())).all()
    )


def of_submission(session: Session, submission_id: int) -> PublishedSolution | None:
    return session.exec(
        select(PublishedSolution).where(PublishedSolution.submission_id == submission_id)
    ).first()


def publish(
    session: Session, user: User, submission_id: int, title: str, writeup: str
) -> PublishedSolution:
    """Publishes (or updates) the author's accepted submission with a title and write-up."""
    sub = session.get(Submission, submission_id)
    if sub is None or sub.user_id != user.id:
        raise SolutionError(f"You have no submission {submission_id}.", 404)
    if sub.mode != Mode.SUBMIT or sub.status != Status.DONE or sub.verdict != "accepted":
        raise SolutionError("Only an accepted submission (Submit, not Run) can be published.")
    if sub.hidden:
        raise SolutionError("An admin hid this submission: it cannot be published.", 403)
    title, writeup = title.strip(), writeup.strip()
    if not title or len(title) > TITLE_MAX:
        raise SolutionError(f"The title needs 1 to {TITLE_MAX} characters.")
    if len(writeup) > WRITEUP_MAX:
        raise SolutionError(f"The write-up is at most {WRITEUP_MAX:,} characters.")
    assert user.id is not None
    sol = of_submission(session, submission_id)
    if sol is None:
        sol = PublishedSolution(
            submission_id=submission_id, user_id=user.id, problem=sub.problem, title="", writeup=""
        )
    sol.title, sol.writeup, sol.published, sol.updated_at = title, writeup, True, utcnow()
    session.add(sol)
    session.commit()
    session.refresh(sol)
    return sol


def _own(session: Session, user: User, sol_id: int) -> PublishedSolution:
    sol = session.get(PublishedSolution, sol_id)
    if sol is None or (sol.user_id != user.id and not user.is_admin):
        raise SolutionError(f"You have no published solution {sol_id}.", 404)
    return sol


def unpublish(session: Session, user: User, sol_id: int) -> None:
    """The author takes it back (its votes and thread are kept for a later re-publish)."""
    sol = _own(session, user, sol_id)
    if sol.user_id != user.id:
        raise SolutionError("Only its author unpublishes a solution; an admin hides it.", 403)
    sol.published, sol.updated_at = False, utcnow()
    session.add(sol)
    session.commit()


def set_hidden(session: Session, admin: User, sol_id: int, hidden: bool) -> None:
    if not admin.is_admin:
        raise SolutionError("Only an admin hides a solution.", 403)
    sol = _own(session, admin, sol_id)
    sol.hidden = hidden
    session.add(sol)
    session.commit()


def vote(session: Session, user: User, sol_id: int, up: bool) -> int:
    """Adds (``up``) or takes back the user's vote; the solution's votes after it. One's own
    solution takes no vote, and only a reader of the solution votes."""
    view = get(session, user, sol_id)
    if view.user_id == user.id:
        raise SolutionError("You cannot vote for your own solution.", 403)
    row = session.get(SolutionVote, (sol_id, user.id))
    if up and row is None:
        assert user.id is not None
        session.add(SolutionVote(solution_id=sol_id, user_id=user.id))
    elif not up and row is not None:
        session.exec(
            delete(SolutionVote).where(
                col(SolutionVote.solution_id) == sol_id, col(SolutionVote.user_id) == user.id
            )
        )
    session.commit()
    n = session.exec(
        select(func.count()).select_from(SolutionVote).where(SolutionVote.solution_id == sol_id)
    ).one()
    return int(n)
