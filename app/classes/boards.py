"""Per-class leaderboards: the site's boards (``app/stats.py``) restricted to the class's
students, on the class's GPU kind, over the problems of its assignments, ranked among
themselves. A class competes with itself; grades stay in the gradebook."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session

from app import stats
from app.classes import assignments, service
from app.classes.models import Course


@dataclass
class Standing:
    rank: int
    username: str
    solved: int
    mean_rank: float


def class_problems(session: Session, course: Course) -> list[str]:
    """The problems of the class's assignments, in assignment then list order, once each."""
    seen: list[str] = []
    for a in service.assignments(session, course.id or 0):
        for p in assignments.problems(session, a.id or 0):
            if p.problem not in seen:
                seen.append(p.problem)
    return seen


def boards(session: Session, course: Course) -> dict[str, list[stats.Entry]]:
    """problem -> the class's students' best accepted submissions, ranked 1, 2, ..."""
    members = {u.id for u in service.students(session, course.id or 0)}
    out: dict[str, list[stats.Entry]] = {}
    for slug, entries in stats.leaderboards(
        session, class_problems(session, course), course.gpu_kind
    ).items():
        mine = [e for e in entries if e.user_id in members]
        for i, e in enumerate(mine):
            e.rank = i + 1
        out[slug] = mine
    return out


def standings(per_problem: dict[str, list[stats.Entry]]) -> list[Standing]:
    """Most problems solved first, then the lower mean rank, then the name."""
    ranks: dict[str, list[int]] = {}
    for entries in per_problem.values():
        for e in entries:
            ranks.setdefault(e.username, []).append(e.rank)
    rows = sorted(
        ((len(r), sum(r) / len(r), name) for name, r in ranks.items()),
        key=lambda t: (-t[0], t[1], t[2]),
    )
    return [Standing(i + 1, name, n, round(mean, 2)) for i, (n, mean, name) in enumerate(rows)]
