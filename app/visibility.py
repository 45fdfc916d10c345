"""Who sees what of a submission.

The source is visible to its author, to admins, to the instructors of a class its author is
a student of, and to learners who have solved the problem (``may_see_code``): kernel-track
code (Triton, CUDA, ...) only to those who solved it on the kernel track, since a one-line
PyTorch ``torch.add`` must not unlock everyone's kernels; framework-track code to those who
solved it on either track. The editorial follows the kernel track's rule too. Everything that can quote the source follows the same rule: a compile log
quotes source lines, a traceback quotes them too, and stdout is whatever the code printed
(``print(inspect.getsource(...))`` prints the whole file). Everyone else sees the verdict,
per-case pass/fail, and the timings the leaderboard publishes anyway (``result_for``).

A judge failure (``internal_error``) carries the judge's own reason (an exception, a driver's
message, the attempts it took) under ``result["internal"]``: admins see it; learners, authors
included, see ``LEARNER_INTERNAL_MESSAGE`` instead (``message_for``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement
from sqlmodel import Session, col, func, select

from app.classes import service as classes
from app.models import Mode, Status, Submission, User
from judge import languages

INTERNAL_ERROR = "internal_error"
LEARNER_INTERNAL_MESSAGE = (
    "The judge failed on its side, not because of your code. "
    "An instructor has been told why and can rejudge it."
)
HIDDEN_OUTPUT = "visible to the author and to learners who have solved this problem"
# What a learner who may not see the code still sees of each benchmark case: the numbers.
_CASE_KEYS = ("name", "passed")


KERNEL = "kernel"


def track_of(language: str) -> str:
    """A language's track (``kernel`` or ``framework``); a language this server no longer
    knows counts as the kernel track, the stricter one."""
    lang = languages.get(language)
    return lang.track if lang is not None else KERNEL


def kernel_languages() -> list[str]:
    return [lang.name for lang in languages.all() if lang.track == KERNEL]


def _accepted(user_id: int, track: str | None) -> list[ColumnElement[bool]]:
    """An accepted, ranked, finished and not hidden submission of this user (on ``track``).

    Finished (``done``): a rejudge puts a row back in the queue with its old verdict until the
    new one is recorded, so an accepted verdict that is being rejudged away no longer counts.
    Not hidden: hiding a rule-breaking submission must take away what it unlocked.
    """
    where = [
        col(Submission.user_id) == user_id,
        col(Submission.mode) == Mode.SUBMIT,
        col(Submission.verdict) == "accepted",
        col(Submission.status) == Status.DONE,
        col(Submission.hidden).is_(False),
    ]
    if track == KERNEL:
        where.append(col(Submission.language).in_(kernel_languages()))
    return where


def accepted_where(user_id: int, track: str | None = None) -> list[ColumnElement[bool]]:
    """The conditions of an acceptance that counts as solving (``_accepted``), for queries that
    aggregate over them (the profile's languages and best times: app/profile_stats.py)."""
    return _accepted(user_id, track)


def solved_problems(session: Session, user_id: int, track: str | None = None) -> set[str]:
    """Problems this user has solved; with ``track="kernel"``, solved on the kernel track
    (a PyTorch ``torch.add`` solves the framework track only)."""
    rows = session.exec(select(Submission.problem).where(*_accepted(user_id, track)).distinct())
    return set(rows.all())


def has_solved(session: Session, user_id: int, problem: str, track: str | None = None) -> bool:
    n = session.exec(
        select(func.count())
        .select_from(Submission)
        .where(col(Submission.problem) == problem, *_accepted(user_id, track))
    ).one()
    return int(n) > 0


def may_see_code(session: Session, viewer: User | None, sub: Submission) -> bool:
    """Your own code always; others' code once you have solved the problem; admins, and
    instructors their classes' students' (student memberships only: ``classes.teaches``),
    always."""
    if viewer is None:
        return False
    if viewer.is_admin or viewer.id == sub.user_id:
        return True
    assert viewer.id is not None
    if viewer.is_instructor and classes.teaches(session, viewer.id, sub.user_id):
        return True  # an instructor reads their students' code (app/classes/service.py)
    # Kernel-track code once you have written a kernel yourself; framework code (PyTorch)
    # once you have solved the problem on either track.
    kernel_code = track_of(sub.language) == KERNEL
    return has_solved(session, viewer.id, sub.problem, KERNEL if kernel_code else None)


def learner_message(result: dict[str, Any] | None) -> str:
    """What a learner reads for an ``internal_error``: written for them, never the judge's own."""
    return str((result or {}).get("learner_message") or LEARNER_INTERNAL_MESSAGE)


def message_for(sub: Submission, *, code: bool, admin: bool) -> str:
    """The verdict's message as this viewer may see it."""
    return shown_message(sub.verdict, sub.message, learner_message(sub.result), code, admin)


def shown_message(verdict: str | None, message: str, learner: str, code: bool, admin: bool) -> str:
    """``message_for`` from the row's parts (the progress stream reads them once for all)."""
    if verdict == INTERNAL_ERROR and not admin:
        return learner
    return message if code else ""


def result_for(result: dict[str, Any] | None, *, code: bool, admin: bool) -> dict[str, Any] | None:
    """A copy of a stored result with what this viewer may not see taken out."""
    if result is None:
        return None
    out = dict(result)
    if not admin:
        out.pop("internal", None)
        if out.get("verdict") == INTERNAL_ERROR:
            out["message"] = learner_message(result)
    if code:
        return out
    out["cases"] = [{k: c.get(k) for k in _CASE_KEYS} for c in out.get("cases") or []]
    comp = out.get("compile")
    if isinstance(comp, dict):
        out["compile"] = {"ok": comp.get("ok"), "seconds": comp.get("seconds"), "log": ""}
    out["stdout"] = ""
    out["warnings"] = []
    out["profile"] = out["sanitizer"] = None  # both point into the code (kernels, lines)
    if out.get("verdict") != INTERNAL_ERROR:
        out["message"] = ""
    out["output_hidden"] = HIDDEN_OUTPUT
    return out
