"""Derived views: acceptance rates, leaderboards, the overall ranking, a learner's history.

Computed from submission rows on read; a class-sized site has thousands of rows, not millions.
Rank = best accepted submission per user, by ``score_ms`` (geometric mean of benchmark
medians); under the CPU interpreter there is no timing, so earlier accepted ranks first.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func
from sqlmodel import Session, col, select

from app.models import Mode, Status, Submission, User


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
    """problem -> (accepted, judged) over ranked submissions."""
    rows = session.exec(
        select(Submission.problem, Submission.verdict, func.count())
        .where(Submission.mode == Mode.SUBMIT, Submission.status == Status.DONE)
        .group_by(col(Submission.problem), col(Submission.verdict))
    ).all()
    out: dict[str, tuple[int, int]] = {}
    for problem, verdict, n in rows:
        acc, tot = out.get(problem, (0, 0))
        out[problem] = (acc + (n if verdict == "accepted" else 0), tot + n)
    return out


def leaderboard(session: Session, problem: str, gpu_kind: str) -> list[Entry]:
    rows = session.exec(
        select(Submission, User.username)
        .join(User, col(User.id) == Submission.user_id)
        .where(
            Submission.problem == problem,
            Submission.gpu_kind == gpu_kind,
            Submission.mode == Mode.SUBMIT,
            Submission.verdict == "accepted",
            Submission.status == Status.DONE,
            col(Submission.hidden).is_(False),
        )
    ).all()
    best: dict[int, tuple[Submission, str]] = {}
    for sub, name in rows:
        cur = best.get(sub.user_id)
        if cur is None or _key(sub) < _key(cur[0]):
            best[sub.user_id] = (sub, name)
    ordered = sorted(best.values(), key=lambda p: _key(p[0]))
    return [
        Entry(i + 1, s.user_id, name, s.id or 0, s.score_ms, s.language, s.finished_at)
        for i, (s, name) in enumerate(ordered)
    ]


def _key(s: Submission) -> tuple[int, float, float]:
    t = s.finished_at.timestamp() if s.finished_at else 0.0
    return (0, s.score_ms, t) if s.score_ms is not None else (1, 0.0, t)


@dataclass
class OverallEntry:
    rank: int
    username: str
    solved: int
    # Mean of the learner's rank across the problems they solved (lower is better).
    mean_rank: float


def overall(session: Session, problems: list[str], gpu_kind: str) -> list[OverallEntry]:
    ranks: dict[str, list[int]] = {}
    for slug in problems:
        for e in leaderboard(session, slug, gpu_kind):
            ranks.setdefault(e.username, []).append(e.rank)
    rows = sorted(
        ((len(r), sum(r) / len(r), name) for name, r in ranks.items()),
        key=lambda t: (-t[0], t[1], t[2]),
    )
    return [OverallEntry(i + 1, name, n, mean) for i, (n, mean, name) in enumerate(rows)]


def history(session: Session, user_id: int, problem: str, gpu_kind: str) -> list[Submission]:
    """The learner's judged ranked submissions on a problem, oldest first (for the chart)."""
    return list(
        session.exec(
            select(Submission)
            .where(
                Submission.user_id == user_id,
                Submission.problem == problem,
                Submission.gpu_kind == gpu_kind,
                Submission.mode == Mode.SUBMIT,
                Submission.status == Status.DONE,
            )
            .order_by(col(Submission.id))
        ).all()
    )


def recent(session: Session, user_id: int, limit: int = 20) -> list[Submission]:
    return list(
        session.exec(
            select(Submission)
            .where(Submission.user_id == user_id)
            .order_by(col(Submission.id).desc())
            .limit(limit)
        ).all()
    )
