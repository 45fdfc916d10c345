"""The learners' rating (issue 40): points by difficulty × speed percentile, docs/rating.md.

A rating is a pure function of the boards as they stand: 1000, plus for each problem a learner
solved, the problem's weight (easy 100, medium 200, hard 300) × a track share (1 on the kernel
track, 1/2 on the framework track) × (1 + s) / 2, where s is the learner's speed percentile on
that problem's board (problem, GPU kind, track): the share of the board's other solvers that are
slower, ties counting half. The fastest gets the whole weight, the slowest half of it; a board
without timing (the CPU interpreter's) gives everyone s = 1/2. A learner on several boards of a
problem counts the best of them. Recomputing from the boards (rather than adding Elo steps) makes
the rating independent of the order results came in, and a hidden or rejudged submission takes
its points away at the next recomputation.

After each recorded acceptance (``after_record``, from app/submissions.py:record) the overall
rating (all languages, all GPU kinds) is recomputed and a history point stored for every learner
whose rating moved; the boards filtered by language or GPU kind are computed when asked.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sqlalchemy import func
from sqlalchemy import select as sa_select
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.compete.models import RatingPoint
from app.models import Mode, Status, Submission, User, utcnow
from app.stats import rank_key
from judge import languages
from judge.problem.loader import load_all, problems_dir

log = logging.getLogger(__name__)

BASE = 1000.0
WEIGHTS = {"easy": 100.0, "medium": 200.0, "hard": 300.0}
TRACK_SHARE = {"kernel": 1.0, "framework": 0.5}
UNTIMED_SPEED = 0.5  # no time to rank by: neither fast nor slow


@dataclass(frozen=True)
class Result:
    """A learner's best accepted ranked submission on one board."""

    user_id: int
    problem: str
    gpu_kind: str
    track: str
    score_ms: float | None


@dataclass
class Row:
    rank: int
    user_id: int
    username: str
    rating: float
    solved: int


def speed_percentile(mine: float | None, board: list[float | None]) -> float:
    """The share of the board's other solvers slower than ``mine`` (ties count half); 1/2 on an
    untimed board, 1 alone on a board."""
    if mine is None:
        return UNTIMED_SPEED
    others = [x for x in board if x is not None]
    others.remove(mine)
    if not others:
        return 1.0
    slower = sum(1 for x in others if x > mine)
    tied = sum(1 for x in others if x == mine)
    return (slower + tied / 2) / len(others)


def ratings(results: list[Result], difficulty: dict[str, str]) -> dict[int, tuple[float, int]]:
    """Each learner's rating and number of problems solved, from their best result per board."""
    boards: dict[tuple[str, str, str], list[float | None]] = {}
    for r in results:
        boards.setdefault((r.problem, r.gpu_kind, r.track), []).append(r.score_ms)
    points: dict[tuple[int, str], float] = {}
    for r in results:
        weight = WEIGHTS.get(difficulty.get(r.problem, "easy"), WEIGHTS["easy"])
        s = speed_percentile(r.score_ms, boards[(r.problem, r.gpu_kind, r.track)])
        p = weight * TRACK_SHARE.get(r.track, 1.0) * (1 + s) / 2
        k = (r.user_id, r.problem)
        points[k] = max(points.get(k, 0.0), p)
    out: dict[int, tuple[float, int]] = {}
    for (uid, _), p in points.items():
        total, solved = out.get(uid, (BASE, 0))
        out[uid] = (total + p, solved + 1)
    return out


def best_results(
    session: Session, language: str | None = None, gpu_kind: str | None = None
) -> list[Result]:
    """Every learner's best accepted ranked submission per board (leaderboard's ranking)."""
    q = sa_select(
        col(Submission.user_id),
        col(Submission.problem),
        col(Submission.gpu_kind),
        col(Submission.language),
        col(Submission.score_ms),
        col(Submission.finished_at),
    ).where(
        col(Submission.mode) == Mode.SUBMIT,
        col(Submission.verdict) == "accepted",
        col(Submission.status) == Status.DONE,
        col(Submission.hidden).is_(False),
    )
    if language:
        q = q.where(col(Submission.language) == language)
    if gpu_kind:
        q = q.where(col(Submission.gpu_kind) == gpu_kind)
    best: dict[tuple[int, str, str, str], tuple[tuple[int, float, float], Result]] = {}
    for uid, problem, kind, lang_name, score, finished in session.execute(q).all():
        lang = languages.get(lang_name)
        track = lang.track if lang is not None else "kernel"
        k = rank_key(score, finished)
        key = (uid, problem, kind, track)
        cur = best.get(key)
        if cur is None or k < cur[0]:
            best[key] = (k, Result(uid, problem, kind, track, score))
    return [r for _, r in best.values()]


def board(
    session: Session,
    difficulty: dict[str, str],
    language: str | None = None,
    gpu_kind: str | None = None,
) -> list[Row]:
    """The rating board, highest first (ties: more solved, then the name)."""
    rated = ratings(best_results(session, language, gpu_kind), difficulty)
    if not rated:
        return []
    names = dict(
        session.execute(
            sa_select(col(User.id), col(User.username)).where(col(User.id).in_(list(rated)))
        ).all()
    )
    rows = sorted(
        (Row(0, uid, names.get(uid, "?"), r, n) for uid, (r, n) in rated.items()),
        key=lambda x: (-round(x.rating, 6), -x.solved, x.username),
    )
    for i, row in enumerate(rows):
        tied = i > 0 and round(rows[i - 1].rating, 6) == round(row.rating, 6)
        row.rank = rows[i - 1].rank if tied else i + 1
    return rows


def history(session: Session, user_id: int) -> list[tuple[datetime, float]]:
    pts = session.exec(
        select(RatingPoint)
        .where(col(RatingPoint.user_id) == user_id)
        .order_by(col(RatingPoint.at), col(RatingPoint.id))
    ).all()
    return [(p.at, p.rating) for p in pts]


def current(session: Session, user_id: int, difficulty: dict[str, str]) -> float | None:
    """The learner's overall rating now; None before a first solve."""
    mine = ratings(best_results(session), difficulty).get(user_id)
    return mine[0] if mine else None


def recompute(session: Session, difficulty: dict[str, str]) -> int:
    """Stores a history point for every learner whose overall rating moved; how many."""
    now = utcnow()
    rated = {uid: r for uid, (r, _) in ratings(best_results(session), difficulty).items()}
    newest = select(func.max(RatingPoint.id)).group_by(col(RatingPoint.user_id))
    last = {
        p.user_id: p.rating
        for p in session.exec(select(RatingPoint).where(col(RatingPoint.id).in_(newest))).all()
    }
    moved = 0
    for uid in set(rated) | set(last):
        r = rated.get(uid, BASE)  # every solve taken away (hidden, rejudged): back to the start
        prev = last.get(uid)
        if prev is None or abs(r - prev) > 1e-9:
            session.add(RatingPoint(user_id=uid, at=now, rating=r))
            moved += 1
    session.commit()
    return moved


@functools.lru_cache(maxsize=4)
def _difficulties(root: Path | None) -> dict[str, str]:
    return {p.slug: p.difficulty for p in load_all(root or problems_dir()).problems}


def difficulties() -> dict[str, str]:
    """Each problem's difficulty, from the problems folder this process is configured with
    (read once: a problem's difficulty changes with a deployment, not while it runs)."""
    from app.core.config import get_settings

    return _difficulties(get_settings().PROBLEMS_DIR)


def after_record(engine: Engine, sub_id: int, difficulty: dict[str, str] | None = None) -> None:
    """Recomputes the ratings after an accepted ranked result. Never raises: the result is
    already written, and the next one recomputes everything anyway."""
    try:
        with Session(engine) as session:
            sub = session.get(Submission, sub_id)
            if sub is None or sub.verdict != "accepted" or sub.mode != Mode.SUBMIT or sub.hidden:
                return
            recompute(session, difficulty if difficulty is not None else difficulties())
    except Exception:
        log.exception("submission %s: recomputing the ratings failed", sub_id)
