"""What the problem page's editor starts from, beyond the statement and the starters.

- what this server does with each language (``capabilities``), said beside Run and Submit, and
  the languages its workers cannot grade right now (``workers``: their self-tests), disabled;
- the test cases that run only on a GPU, so that a Run on the CPU says what it skipped;
- the logged-in learner's drafts kept on the server (``app/api/routes/drafts.py``);
- a past submission opened in the editor (``?from=ID``, from its page), with its verdict and
  messages so that the editor can mark a compile error at its line;
- the learner's recent submissions on the problem, to open or to compare with (diff).
"""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, col, select

from app import capabilities, visibility, workers
from app.models import Draft, Submission, User
from judge import languages
from judge.problem.schema import Problem

RECENT = 8


def recent(session: Session, user: User | None, slug: str) -> list[Submission]:
    if user is None:
        return []
    return list(
        session.exec(
            select(Submission)
            .where(Submission.user_id == user.id, Submission.problem == slug)
            .order_by(col(Submission.id).desc())
            .limit(RECENT)
        ).all()
    )


def opened(session: Session, user: User | None, slug: str, sub_id: int | None) -> dict[str, Any]:
    """The submission ``sub_id`` for the editor, or why it cannot be opened (``error``)."""
    if sub_id is None:
        return {}
    sub = session.get(Submission, sub_id)
    if sub is None or sub.problem != slug:
        return {"error": f"Submission #{sub_id} is not a submission to this problem."}
    if not visibility.may_see_code(session, user, sub):
        return {"error": f"The code of submission #{sub_id} is not yours to open."}
    admin = bool(user and user.is_admin)
    result = visibility.result_for(sub.result, code=True, admin=admin) or {}
    return {
        "id": sub.id,
        "language": sub.language,
        "source": sub.source,
        "verdict": sub.verdict,
        "message": visibility.message_for(sub, code=True, admin=admin),
        "compileLog": (result.get("compile") or {}).get("log") or "",
        "mine": bool(user and user.id == sub.user_id),
    }


def editor_data(
    session: Session,
    user: User | None,
    problem: Problem,
    gpu_kinds: list[str],
    mine: list[Submission],
    from_id: int | None,
) -> dict[str, Any]:
    drafts: dict[str, dict[str, Any]] = {}
    if user is not None:
        for d in session.exec(
            select(Draft).where(Draft.user_id == user.id, Draft.problem == problem.slug)
        ).all():
            drafts[d.language] = {"source": d.source, "updated": d.updated_at.timestamp() * 1000}
    return {
        "support": capabilities.editor_data(gpu_kinds, workers.unavailable(session, gpu_kinds)),
        "gpuOnly": list(capabilities.gpu_only_cases(problem)),
        "gpuOnlyByLanguage": {
            lang.name: list(capabilities.gpu_only_cases(problem, lang.name))
            for lang in languages.all()
        },
        "testCount": len(problem.tests),
        "drafts": drafts,
        "opened": opened(session, user, problem.slug, from_id),
        "recent": [
            {"id": s.id, "language": s.language, "verdict": s.verdict, "mode": s.mode} for s in mine
        ],
    }
