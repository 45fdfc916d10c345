"""The answer to a submission in a language the workers cannot grade right now.

Its known-good sample failed on the workers of its GPU kind (app/workers.py, judge/doctor.py):
the judge's environment is broken for it, not the learner's code. The submission is stored
``done`` with the app's own verdict ``unavailable`` (never one of the judge's verdicts: those are
a contract, and ``internal_error`` is for the judge's own bugs) and counts for nothing: not an
attempt, not in acceptance rates, histories or gradebooks (app/stats.py, app/classes/grades.py).
The reason (the self-test's error) is kept under ``result["internal"]`` for admins.
"""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import Session

from app.core.inputs import clean_text
from app.models import Status, Submission, utcnow
from judge import languages

VERDICT = "unavailable"
LABEL = "Not Available"


def message(language: str) -> str:
    """ "Numba is not available on this server's GPU workers right now", and what it means."""
    lang = languages.get(language)
    label = lang.label if lang else language
    return (
        f"{label} is not available on this server's GPU workers right now. This does not count "
        "against you: the judge's own environment cannot run it at the moment (an admin can see "
        "why), not your code. Submit it again later, or in another language."
    )


def result(problem: str, language: str, gpu_kind: str, reason: str) -> dict[str, Any]:
    """A stored result of the same shape as a grading's (GradeResult.to_dict), with no cases."""
    text = message(language)
    return {
        "verdict": VERDICT,
        "problem": problem,
        "language": language,
        "device": gpu_kind,
        "message": text,
        "internal": f"{language} is unavailable on the {gpu_kind} workers: {reason}",
        "cases": [],
        "benchmark": [],
        "warnings": [],
        "score_ms": None,
    }


def answer(session: Session, sub: Submission, reason: str) -> None:
    """Finish a stored (not yet sent) submission as ``unavailable``."""
    res = result(sub.problem, sub.language, sub.gpu_kind, reason)
    sub.status = Status.DONE
    sub.verdict = VERDICT
    sub.message = clean_text(res["message"])[:2000]
    sub.result_json = json.dumps(res)
    sub.progress_json = json.dumps({"stage": "done", "verdict": VERDICT})
    sub.finished_at = utcnow()
    session.add(sub)
    session.commit()
    session.refresh(sub)
