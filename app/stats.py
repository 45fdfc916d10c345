"""Derived views: acceptance rates, leaderboards, the overall ranking, a learner's history.

Computed from submission rows on read; a class-sized site has thousands of rows, not millions.
Rank = best accepted submission per user, by ``score_ms`` (geometric mean of benchmark
medians); under the CPU interpreter there is no timing, so earlier accepted ranks first.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func
from sqlalchemy import select as sa_select
from sqlalchemy.orm import defer
from sqlmodel import Session, col, select

from app import unavailable
from app.models import Mode, Status, Submission, User
from judge import languages
from judge.verdicts import Verdict


@dataclass
class Entry:
    rank: int
    user_id: int
    username: str
    submission_id: int
    score_ms: float | None
    language: str
    finished_at: datetime | None


def acceptance(session: Session) -> dict[str, tuple[int, int]]:
    """problem -> (accepted, judged) over ranked submissions. ``not_run`` (compiled on a
    server without a GPU, never tested) and ``unavailable`` (the workers could not grade the
    language: app/unavailable.py) are no judgement of the code: they count for neither."""
    rows = session.exec(
        select(Submission.problem, Submission.verdict, func.count())
        .where(
            Submission.mode == Mode.SUBMIT,
            Submission.status == Status.DONE,
            col(Submission.verdict).not_in([Verdict.NOT_RUN, unavailable.VERDICT]),
        )
        .group_by(col(Submission.problem), col(Submission.verdict))
    ).all()
    out: dict[str, tuple[int, int]] = {}
    for problem, verdict, n in rows:
        acc, tot = out.get(problem, (0, 0))
        out[problem] = (acc + (n if verdict == "accepted" else 0), tot + n)
    return out


TRACKS = ("kernel", "framework")


def track_languages(track: str) -> list[str]:
    """The languages ranked on a track: ``kernel`` (own kernels: Triton, CUDA, Numba) or
    ``framework`` (any library op: PyTorch). Each board ranks one track."""
    return [lang.name for lang in languages.all() if lang.track == track]


def leaderboard(
    session: Session, problem: str, gpu_kind: str, track: str = "kernel"
) -> list[Entry]:
    return leaderboards(session, [problem], gpu_kind, track).get(problem, [])


def leaderboards(
    session: Session, problems: list[str], gpu_kind: str, track: str = "kernel"
) -> dict[str, list[Entry]]:
    """The boards of several problems on one track, from one query.

    Only the columns a board shows are read (not whole rows with their source and result
    JSON): building full ORM objects for every accepted submission was most of the CPU time
    of the leaderboard and submission pages under load (benchmarks/README.md, 'Web under load').
    """
    if not problems:
        return {}
    rows = session.execute(
        sa_select(
            col(Submission.id),
            col(Submission.user_id),
            col(Submission.problem),
            col(Submission.score_ms),
            col(Submission.language),
            col(Submission.finished_at),
            col(User.username),
        )
        .join(User, col(User.id) == Submission.user_id)
        .where(
            col(Submission.problem).in_(problems),
            col(Submission.language).in_(track_languages(track)),
            col(Submission.gpu_kind) == gpu_kind,
            col(Submission.mode) == Mode.SUBMIT,
            col(Submission.verdict) == "accepted",
            col(Submission.status) == Status.DONE,
            col(Submission.hidden).is_(False),
        )
        .order_by(col(Submission.id))
    ).all()
    best: dict[tuple[str, int], tuple[tuple[int, float, float], Entry]] = {}
    for sid, uid, problem, score, language, finished, name in rows:
        k = rank_key(score, finished)
        cur = best.get((problem, uid))
        if cur is None or k < cur[0]:
            best[(problem, uid)] = (k, Entry(0, uid, name, sid or 0, score, language, finished))
    boards: dict[str, list[Entry]] = {p: [] for p in problems}
    for (problem, _), (_, e) in sorted(best.items(), key=lambda kv: kv[1][0]):
        e.rank = len(boards[problem]) + 1
        boards[problem].append(e)
    return boards


def rank_key(score_ms: float | None, finished_at: datetime | None) -> tuple[int, float, float]:
    """What ranks one accepted submission against another (lower first): the faster score, and
    between equals or untimed ones, the earlier; the profile picks a learner's best with it."""
    t = finished_at.timestamp() if finished_at else 0.0
    return (0, score_ms, t) if score_ms is not None else (1, 0.0, t)


@dataclass
class OverallEntry:
    rank: int
    username: str
    solved: int
    # Mean of the learner's rank across the problems they solved (lower is better).
    mean_rank: float


def overall(session: Session, problems: list[str], gpu_kind: str) -> list[OverallEntry]:
    ranks: dict[str, list[int]] = {}
    boards = leaderboards(session, problems, gpu_kind)
    for slug in problems:
        for e in boards[slug]:
            ranks.setdefault(e.username, []).append(e.rank)
    rows = sorted(
        ((len(r), sum(r) / len(r), name) for name, r in ranks.items()),
        key=lambda t: (-t[0], t[1], t[2]),
    )
    return [OverallEntry(i + 1, name, n, mean) for i, (n, mean, name) in enumerate(rows)]


# Rows listed in charts and tables need neither the source nor the result JSON.
_LIGHT = (
    defer(Submission.source),  # type: ignore[arg-type]
    defer(Submission.result_json),  # type: ignore[arg-type]
    defer(Submission.progress_json),  # type: ignore[arg-type]
)


def history(session: Session, user_id: int, problem: str, gpu_kind: str) -> list[Submission]:
    """The learner's judged ranked submissions on a problem, oldest first (for the chart); one
    the workers could not grade (``unavailable``) was not judged."""
    return list(
        session.exec(
            select(Submission)
            .options(*_LIGHT)
            .where(
                Submission.user_id == user_id,
                Submission.problem == problem,
                Submission.gpu_kind == gpu_kind,
                Submission.mode == Mode.SUBMIT,
                Submission.status == Status.DONE,
                col(Submission.verdict) != unavailable.VERDICT,
            )
            .order_by(col(Submission.id))
        ).all()
    )


def recent(session: Session, user_id: int, limit: int = 20) -> list[Submission]:
    return list(
        session.exec(
            select(Submission)
            .options(*_LIGHT)
            .where(Submission.user_id == user_id)
            .order_by(col(Submission.id).desc())
            .limit(limit)
        ).all()
    )
