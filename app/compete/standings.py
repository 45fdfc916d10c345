"""A contest's board: who solved what, when, how fast; frozen near the end, then revealed.

Scoring (``SCORING``, stated on the contest page): each problem solved earns 100 points plus up
to 100 for speed, 100 × the fastest contestant's time ÷ one's own (the best accepted ranked
submission, on the contest's GPU kind; no speed points on an untimed board, the CPU
interpreter's). Ties go to the smaller sum of first-accepted times, in minutes from the start
of one's window (the contest's start for live entries, a late joiner's included; the moment a
virtual participation began for virtual ones).

While the board is frozen (its last ``freeze_minutes`` until the reveal) everyone but the
contest's managers sees it as it stood at the freeze. With a final re-run, a problem counts on
the final board only when the re-run of the best submission was accepted, and its speed is the
re-run's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from app.compete import contests
from app.compete.models import Contest, ContestEntry, ContestRerun
from app.models import Mode, Status, Submission, User, utcnow
from app.stats import rank_key

SCORING = (
    "Each problem solved earns 100 points, plus up to 100 for speed: 100 × the fastest "
    "contestant's time ÷ yours (your best accepted Submit on the contest's GPU kind; no speed "
    "points where it is untimed, as on the CPU interpreter). Ties: the smaller sum of "
    "first-accepted times, in minutes from the start."
)
SOLVE_POINTS = 100.0
SPEED_POINTS = 100.0
# Verdicts that are not the learner's mistake: no try counted against them.
NOT_TRIES = {"accepted", "not_run", "unavailable", "internal_error"}


@dataclass
class Cell:
    problem: str
    solved: bool = False
    tries: int = 0  # failed ranked submissions before the first acceptance
    minutes: float | None = None  # first acceptance, from the window's start
    score_ms: float | None = None
    points: float = 0.0
    submission_id: int | None = None  # the best accepted one (what the re-run grades)
    rerun: str | None = None  # "pending", or the re-run's verdict


@dataclass
class Line:
    rank: int
    user_id: int
    username: str
    points: float = 0.0
    solved: int = 0
    minutes: float = 0.0
    cells: list[Cell] = field(default_factory=list)


@dataclass
class Standings:
    contest_id: int
    phase: str
    virtual: bool
    frozen: bool  # shown as it stood at the freeze
    problems: list[str]
    lines: list[Line]
    rerun_pending: int = 0  # re-run gradings not finished yet


def compute(
    session: Session,
    c: Contest,
    virtual: bool = False,
    full: bool = False,
    now: datetime | None = None,
) -> Standings:
    """The board of live (or virtual) entries; ``full``: never frozen (managers, the re-run)."""
    assert c.id is not None
    now = now or utcnow()
    phase = contests.phase(c, now)
    probs = contests.problems(session, c.id)
    entries = session.exec(
        select(ContestEntry).where(
            ContestEntry.contest_id == c.id, col(ContestEntry.virtual).is_(virtual)
        )
    ).all()
    frozen = (
        not virtual
        and not full
        and c.freeze_minutes > 0
        and phase in (contests.FROZEN, contests.JUDGING)
    )
    cutoff = contests.freeze_at(c) if frozen else None
    names = dict(
        session.execute(
            sa_select(col(User.id), col(User.username)).where(
                col(User.id).in_([e.user_id for e in entries])
            )
        ).all()
    )
    rows = session.execute(
        sa_select(
            col(Submission.id),
            col(Submission.user_id),
            col(Submission.problem),
            col(Submission.verdict),
            col(Submission.score_ms),
            col(Submission.created_at),
            col(Submission.finished_at),
        )
        .where(
            col(Submission.user_id).in_(list(names)),
            col(Submission.problem).in_(probs),
            col(Submission.gpu_kind) == c.gpu_kind,
            col(Submission.mode) == Mode.SUBMIT,
            col(Submission.status) == Status.DONE,
            col(Submission.hidden).is_(False),
        )
        .order_by(col(Submission.created_at), col(Submission.id))
    ).all()
    by_user: dict[int, list[tuple[int, str, str | None, float | None, datetime, datetime | None]]]
    by_user = {}
    for sid, uid, problem, verdict, score, created, finished in rows:
        by_user.setdefault(uid, []).append((sid, problem, verdict, score, created, finished))
    reruns = _reruns(session, c.id) if (c.rerun and not virtual and not frozen) else {}
    lines = []
    for e in entries:
        start, end = contests.window(c, e)
        if cutoff is not None:
            end = min(end, cutoff)
        line = Line(0, e.user_id, names.get(e.user_id, "?"))
        cells = {p: Cell(p) for p in probs}
        best: dict[str, tuple[int, float, float]] = {}
        for sid, problem, verdict, score, created, finished in by_user.get(e.user_id, []):
            at = contests.aware(created)
            if not start <= at < end:
                continue
            cell = cells[problem]
            if verdict != "accepted":
                if not cell.solved and verdict not in NOT_TRIES:
                    cell.tries += 1
                continue
            if not cell.solved:
                cell.solved = True
                cell.minutes = (at - start).total_seconds() / 60
            k = rank_key(score, finished)
            if problem not in best or k < best[problem]:
                best[problem] = k
                cell.score_ms, cell.submission_id = score, sid
        for cell in cells.values():
            r = reruns.get((e.user_id, cell.problem))
            if cell.solved and r is not None:
                status, verdict, score = r
                if status != Status.DONE:
                    cell.rerun = "pending"
                else:
                    cell.rerun = verdict
                    cell.solved = verdict == "accepted"
                    cell.score_ms = score if cell.solved else None
        line.cells = [cells[p] for p in probs]
        lines.append(line)
    _score(lines, probs)
    pending = sum(1 for line in lines for cell in line.cells if cell.rerun == "pending")
    return Standings(c.id, phase, virtual, frozen, probs, lines, pending)


def _reruns(
    session: Session, contest_id: int
) -> dict[tuple[int, str], tuple[str, str | None, float | None]]:
    rows = session.execute(
        sa_select(
            col(ContestRerun.user_id),
            col(ContestRerun.problem),
            col(Submission.status),
            col(Submission.verdict),
            col(Submission.score_ms),
        )
        .join(Submission, col(Submission.id) == ContestRerun.rerun_id)
        .where(col(ContestRerun.contest_id) == contest_id)
    ).all()
    return {(uid, p): (st, v, s) for uid, p, st, v, s in rows}


def _score(lines: list[Line], probs: list[str]) -> None:
    """Points per cell and line, then ranks (equal points and minutes share a rank)."""
    for i, _ in enumerate(probs):
        timed = [
            line.cells[i].score_ms
            for line in lines
            if line.cells[i].solved and line.cells[i].score_ms is not None
        ]
        fastest = min((t for t in timed if t is not None), default=None)
        for line in lines:
            cell = line.cells[i]
            if not cell.solved:
                cell.minutes = None if cell.rerun is None else cell.minutes
                continue
            speed = 0.0
            if fastest is not None and cell.score_ms:
                speed = SPEED_POINTS * fastest / cell.score_ms
            cell.points = SOLVE_POINTS + speed
            line.points += cell.points
            line.solved += 1
            line.minutes += cell.minutes or 0.0
    lines.sort(key=lambda x: (-round(x.points, 6), round(x.minutes, 6), x.username))
    for i, line in enumerate(lines):
        prev = lines[i - 1] if i else None
        same = (
            prev is not None
            and round(prev.points, 6) == round(line.points, 6)
            and round(prev.minutes, 6) == round(line.minutes, 6)
        )
        line.rank = prev.rank if same and prev is not None else i + 1


def as_dict(st: Standings) -> dict[str, object]:
    """The board as the API and the live stream send it."""
    return {
        "contest_id": st.contest_id,
        "phase": st.phase,
        "virtual": st.virtual,
        "frozen": st.frozen,
        "problems": st.problems,
        "rerun_pending": st.rerun_pending,
        "lines": [
            {
                "rank": line.rank,
                "username": line.username,
                "points": round(line.points, 2),
                "solved": line.solved,
                "minutes": round(line.minutes, 2),
                "cells": [
                    {
                        "problem": cell.problem,
                        "solved": cell.solved,
                        "tries": cell.tries,
                        "minutes": None if cell.minutes is None else round(cell.minutes, 2),
                        "score_ms": cell.score_ms,
                        "points": round(cell.points, 2),
                        "rerun": cell.rerun,
                    }
                    for cell in line.cells
                ],
            }
            for line in st.lines
        ],
    }
