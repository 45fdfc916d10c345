"""Who sees what of a submission.

The source is visible to its author, to admins, to the instructors of a class its author is
a student of, and to learners who have solved the problem (``may_see_code``). Everything that can quote the source follows the same rule: a compile log
quotes source lines, a traceback quotes them too, and stdout is whatever the code printed
(``print(inspect.getsource(...))`` prints the whole file). Everyone else sees the verdict,
per-case pass/fail, and the timings the leaderboard publishes anyway (``result_for``).

A judge failure (``internal_error``) carries the judge's own reason (an exception, a driver's
message, the attempts it took) under ``result["internal"]``: admins see it; learners, authors
included, see ``LEARNER_INTERNAL_MESSAGE`` instead (``message_for``).
"""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, col, func, select

from app.classes import service as classes
from app.models import Mode, Status, Submission, User

INTERNAL_ERROR = "internal_error"
LEARNER_INTERNAL_MESSAGE = (
    "The judge failed on its side, not because of your code. "
    "An instructor has been told why and can rejudge it."
)
HIDDEN_OUTPUT = "visible to the author and to learners who have solved this problem"
# What a learner who may not see the code still sees of each benchmark case: the numbers.
_CASE_KEYS = ("name", "passed")


def solved_problems(session: Session, user_id: int) -> set[str]:
    """Problems with an accepted, ranked, finished and not hidden submission of this user.

    Finished (``done``): a rejudge puts a row back in the queue with its old verdict until the
    new one is recorded, so an accepted verdict that is being rejudged away no longer counts.
    Not hidden: hiding a rule-breaking submission must take away what it unlocked.
    """
    rows = session.exec(
        select(Submission.problem)
        .where(
            Submission.user_id == user_id,
            Submission.mode == Mode.SUBMIT,
            Submission.verdict == "accepted",
            Submission.status == Status.DONE,
            col(Submission.hidden).is_(False),
        )
        .distinct()
    ).all()
    return set(rows)


def has_solved(session: Session, user_id: int, problem: str) -> bool:
    n = session.exec(
        select(func.count())
        .select_from(Submission)
        .where(
            Submission.user_id == user_id,
            Submission.problem == problem,
            Submission.mode == Mode.SUBMIT,
            Submission.verdict == "accepted",
            Submission.status == Status.DONE,
            col(Submission.hidden).is_(False),
        )
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
    return has_solved(session, viewer.id, sub.problem)


def learner_message(result: dict[str, Any] | None) -> str:
    """What a learner reads for an ``internal_error``: written for them, never the judge's own."""
    return str((result or {}).get("learner_message") or LEARNER_INTERNAL_MESSAGE)


def message_for(sub: Submission, *, code: bool, admin: bool) -> str:
    """The verdict's message as this viewer may see it."""
    if sub.verdict == INTERNAL_ERROR and not admin:
        return learner_message(sub.result)
    return sub.message if code else ""


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
