"""The speed score's reference: the problem's editorial solution, timed by this judge on the
class's GPU kind.

A problem's editorial solution in a language is ``solutions/accepted/<language>_fast<suffix>``
(the fast solution its editorial and statement quote). An instructor's request (on creating an
assignment with a speed rule, or from the assignment page) submits it as an ordinary, hidden
submission of that instructor on the class's GPU kind: it goes through the same queue, sandbox
and timing protocol as a student's, so the comparison is like for like. Its ``score_ms`` (the
geometric mean of the benchmark medians) is a reference: a student's ``score_ms`` is compared
with the fastest reference among the languages the assignment counts (``fastest``), so that a
language without an editorial of its own is timed like the others, not waved through. The CPU
interpreter does not time, so a CPU class gets no runs.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from pathlib import Path

from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from app import submissions
from app.classes.models import EditorialRun
from app.models import Mode, Status, Submission, SubmissionCreate, User
from app.problems import ProblemRegistry
from app.queue import Enqueue
from judge import languages

log = logging.getLogger(__name__)
UNTIMED_KINDS = frozenset({"cpu"})


def source_path(problem_dir: Path, language: str) -> Path | None:
    lang = languages.get(language)
    if lang is None:
        return None
    p = problem_dir / "solutions" / "accepted" / f"{lang.name}_fast{lang.suffix}"
    return p if p.is_file() else None


def reference_ms(
    session: Session, problems: list[str], gpu_kind: str
) -> dict[tuple[str, str], float]:
    """(problem, language) -> the newest accepted, timed editorial run's score_ms."""
    if not problems:
        return {}
    rows = session.execute(
        sa_select(col(EditorialRun.problem), col(EditorialRun.language), col(Submission.score_ms))
        .join(Submission, col(Submission.id) == EditorialRun.submission_id)
        .where(
            col(EditorialRun.problem).in_(problems),
            col(EditorialRun.gpu_kind) == gpu_kind,
            col(Submission.status) == Status.DONE,
            col(Submission.verdict) == "accepted",
            col(Submission.score_ms).is_not(None),
        )
        .order_by(col(EditorialRun.id))
    ).all()
    return {(p, lang): float(ms) for p, lang, ms in rows}  # later (newer) rows win


def fastest(
    refs: dict[tuple[str, str], float], problem: str, counted: Iterable[str]
) -> float | None:
    """The fastest editorial time of ``problem`` among the ``counted`` languages, if any."""
    times = [refs[(problem, lang)] for lang in counted if (problem, lang) in refs]
    return min(times) if times else None


def pending(session: Session, problem: str, gpu_kind: str, language: str) -> bool:
    """A run of this editorial is queued or being graded."""
    row = session.exec(
        select(EditorialRun.id)
        .join(Submission, col(Submission.id) == EditorialRun.submission_id)
        .where(
            EditorialRun.problem == problem,
            EditorialRun.gpu_kind == gpu_kind,
            EditorialRun.language == language,
            Submission.status != Status.DONE,
        )
    ).first()
    return row is not None


def request(
    session: Session,
    registry: ProblemRegistry,
    user: User,
    problems: Mapping[str, Iterable[str]],
    gpu_kind: str,
    enqueue: Enqueue,
    again: bool = False,
) -> list[int]:
    """Submit the editorial solutions of ``problems`` (slug -> the languages the assignment
    counts) that have no timing on ``gpu_kind`` yet (all of them with ``again``); returns the
    new submissions' ids."""
    if gpu_kind in UNTIMED_KINDS:
        return []
    have = reference_ms(session, list(problems), gpu_kind)
    ids: list[int] = []
    for slug, counted in problems.items():
        p = registry.get(slug)
        if p is None:
            continue
        wanted = set(counted)
        for lang in languages.all():
            if lang.name not in wanted:
                continue
            path = source_path(p.path, lang.name)
            if path is None or pending(session, slug, gpu_kind, lang.name):
                continue
            if (slug, lang.name) in have and not again:
                continue
            sub = submissions.create(
                session,
                user,
                SubmissionCreate(
                    problem=slug,
                    language=lang.name,
                    source=path.read_text(encoding="utf-8"),
                    mode=Mode.SUBMIT,
                ),
                gpu_kind,
            )
            sub.hidden = True  # a reference, not a contender on the public boards
            session.add(sub)
            assert sub.id is not None
            session.add(
                EditorialRun(
                    problem=slug, gpu_kind=gpu_kind, language=lang.name, submission_id=sub.id
                )
            )
            session.commit()
            submissions.send(session.get_bind(), enqueue, sub.id, gpu_kind, sub.mode)  # type: ignore[arg-type]
            ids.append(sub.id)
    if ids:
        log.info("editorial runs queued on %s: %s", gpu_kind, ids)
    return ids
