"""A learner's profile in numbers (the ``/users/{name}`` page): submissions per day over the
last year, what they solved by difficulty and by learning track, the languages of their
accepted submissions, their best time and percent of speed of light per problem, and when
they joined and were last active.

A handful of aggregate queries whatever the learner's history, none per problem or per day.
"Solved" is the app's own (``visibility.solved_problems``): a kernel-track acceptance, so a
PyTorch ``torch.add`` counts apart, as solved with a framework only. "Best" is the leaderboard's
(``stats.rank_key``). Days are UTC days, as every date the site shows.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import ColumnElement, func
from sqlalchemy import select as sa_select
from sqlmodel import Session, col

from app import curriculum, stats, visibility
from app.models import Submission, User
from judge.problem.schema import DIFFICULTIES, Problem

DAYS = 365  # the heatmap's span, ending today
# A phone shows the last weeks only: the year's 53 columns would be 3-4 px cells at 390 px.
PHONE_WEEKS = 26
LEVELS = 4  # shades of a day with submissions (0 is a day without)


@dataclass(frozen=True)
class Day:
    day: date
    count: int
    level: int  # 0 (none) .. LEVELS (the busiest days)

    @property
    def title(self) -> str:
        """The cell's tooltip and accessible name: its date and its count."""
        n = (
            f"{self.count} submission{'' if self.count == 1 else 's'}"
            if self.count
            else "No submissions"
        )
        return f"{n} on {self.day:%a %Y-%m-%d}"


@dataclass
class Heatmap:
    days: list[Day]  # from a Monday to today, column by column (one column a week)
    weeks: int
    months: list[tuple[int, str]]  # (1-based column, "Nov") where a month starts
    total: int  # submissions in the span
    active_days: int

    @property
    def phone_skip(self) -> int:
        """The first weeks a phone leaves out (profile.css shows PHONE_WEEKS)."""
        return max(0, self.weeks - PHONE_WEEKS)


@dataclass(frozen=True)
class Tally:
    label: str
    solved: int
    total: int

    @property
    def pct(self) -> float:
        return 100.0 * self.solved / self.total if self.total else 0.0


@dataclass(frozen=True)
class LanguageUse:
    language: str
    accepted: int  # accepted submissions
    problems: int  # distinct problems among them


@dataclass(frozen=True)
class Best:
    problem: str
    gpu_kind: str
    language: str
    score_ms: float
    sol_pct: float | None  # None: the result recorded no speed-of-light figure
    submission_id: int

    @property
    def track(self) -> str:
        return visibility.track_of(self.language)


@dataclass
class Profile:
    member_since: datetime
    last_active: datetime | None
    submissions: int  # every shown submission, ever
    heatmap: Heatmap
    solved: list[Problem]  # on the kernel track
    framework_only: list[Problem]  # solved with a framework (PyTorch) only
    by_difficulty: list[Tally]
    by_track: list[Tally]
    languages: list[LanguageUse]
    best: list[Best]
    total: int = field(default=0)  # problems on this server


def build(session: Session, who: User, problems: Sequence[Problem], today: date) -> Profile:
    assert who.id is not None
    uid = who.id
    kernel = visibility.solved_problems(session, uid, visibility.KERNEL)
    either = visibility.solved_problems(session, uid)
    listed = list(problems)
    last, count = session.execute(
        sa_select(func.max(col(Submission.created_at)), func.count()).where(*_shown(uid))
    ).one()
    return Profile(
        member_since=who.created_at,
        last_active=last,
        submissions=int(count),
        heatmap=heatmap(activity(session, uid, today), today),
        solved=[p for p in listed if p.slug in kernel],
        framework_only=[p for p in listed if p.slug in either - kernel],
        by_difficulty=by_difficulty(listed, kernel),
        by_track=[
            Tally(t.label, t.solved, len(t.steps)) for t in curriculum.build(listed, kernel).tracks
        ],
        languages=languages_used(session, uid),
        best=best_results(session, uid, [p.slug for p in listed]),
        total=len(listed),
    )


def _shown(uid: int) -> list[ColumnElement[bool]]:
    # A hidden (rule-breaking) submission is out of every public view, the profile's included.
    return [col(Submission.user_id) == uid, col(Submission.hidden).is_(False)]


def first_day(today: date) -> date:
    """The heatmap's first cell: the Monday of the week DAYS - 1 days before today."""
    start = today - timedelta(days=DAYS - 1)
    return start - timedelta(days=start.weekday())


def activity(session: Session, uid: int, today: date) -> dict[date, int]:
    """Submissions (every mode) per UTC day since ``first_day``: one grouped query."""
    since = datetime.combine(first_day(today), time(), UTC)
    created = col(Submission.created_at)
    if session.get_bind().dialect.name == "postgresql":
        # The day in UTC whatever the connection's time zone (timestamptz's date() uses it).
        day: Any = func.date(func.timezone("UTC", created))
    else:
        day = func.date(created)  # SQLite keeps UTC text: date() reads its day
    rows = session.execute(
        sa_select(day, func.count()).where(*_shown(uid), created >= since).group_by(day)
    ).all()
    # SQLite answers 'YYYY-MM-DD' text, PostgreSQL a date.
    return {date.fromisoformat(str(d)[:10]): int(n) for d, n in rows if d is not None}


def heatmap(counts: dict[date, int], today: date) -> Heatmap:
    start = first_day(today)
    top = max((n for d, n in counts.items() if start <= d <= today), default=0)
    days: list[Day] = []
    d = start
    while d <= today:
        n = counts.get(d, 0)
        days.append(Day(d, n, math.ceil(LEVELS * n / top) if n else 0))
        d += timedelta(days=1)
    weeks = (len(days) + 6) // 7
    months: list[tuple[int, str]] = []
    for w in range(weeks):
        monday = start + timedelta(weeks=w)
        if w == 0 or monday.month != (monday - timedelta(weeks=1)).month:
            months.append((w + 1, f"{monday:%b}"))
    if len(months) > 1 and months[1][0] <= 3:
        months.pop(0)  # the partial first month's label would run into the next one's
    active = [x for x in days if x.count]
    return Heatmap(days, weeks, months, sum(x.count for x in active), len(active))


def by_difficulty(problems: list[Problem], solved: set[str]) -> list[Tally]:
    """Easy, medium, hard (the schema's order): solved of each, out of this server's problems."""
    out = []
    for level in DIFFICULTIES:
        of = [p for p in problems if p.difficulty == level]
        if of:
            out.append(Tally(level.capitalize(), sum(p.slug in solved for p in of), len(of)))
    return out


def languages_used(session: Session, uid: int) -> list[LanguageUse]:
    """Accepted submissions (that count as solving) per language, the most used first."""
    rows = session.execute(
        sa_select(
            col(Submission.language),
            func.count(),
            func.count(func.distinct(col(Submission.problem))),
        )
        .where(*visibility.accepted_where(uid))
        .group_by(col(Submission.language))
    ).all()
    uses = [LanguageUse(lang, int(n), int(p)) for lang, n, p in rows]
    return sorted(uses, key=lambda u: (-u.accepted, u.language))


def best_results(session: Session, uid: int, order: list[str]) -> list[Best]:
    """The learner's best timed acceptance per problem and GPU kind, as the leaderboard picks
    it (``stats.rank_key``), with its percent of speed of light. Two queries: the candidates'
    light columns, then the chosen rows' results (not every candidate's JSON)."""
    rows = session.execute(
        sa_select(
            col(Submission.id),
            col(Submission.problem),
            col(Submission.gpu_kind),
            col(Submission.language),
            col(Submission.score_ms),
            col(Submission.finished_at),
        ).where(*visibility.accepted_where(uid), col(Submission.score_ms).is_not(None))
    ).all()
    chosen: dict[tuple[str, str], Any] = {}
    for row in rows:
        key = (row.problem, row.gpu_kind)
        cur = chosen.get(key)
        if cur is None or stats.rank_key(row.score_ms, row.finished_at) < stats.rank_key(
            cur.score_ms, cur.finished_at
        ):
            chosen[key] = row
    if not chosen:
        return []
    results = dict(
        session.execute(
            sa_select(col(Submission.id), col(Submission.result_json)).where(
                col(Submission.id).in_([r.id for r in chosen.values()])
            )
        ).all()
    )
    rank = {slug: i for i, slug in enumerate(order)}
    best = [
        Best(r.problem, r.gpu_kind, r.language, r.score_ms, sol_pct(results.get(r.id)), r.id)
        for r in chosen.values()
    ]
    return sorted(best, key=lambda b: (rank.get(b.problem, len(rank)), b.problem, b.gpu_kind))


def sol_pct(result_json: str | None) -> float | None:
    """A result's percent of speed of light over its benchmark cases: the geometric mean of the
    cases' ``sol_pct`` (judge/timing/bench.py), as ``score_ms`` is the geometric mean of their
    medians, so that it is the speed-of-light time's share of the score."""
    try:
        bench = (json.loads(result_json) if result_json else {}).get("benchmark") or []
        pcts = [float(b["sol_pct"]) for b in bench if float(b.get("sol_pct") or 0) > 0]
    except (ValueError, TypeError, AttributeError, KeyError):
        return None
    if not pcts:
        return None
    return math.exp(sum(math.log(p) for p in pcts) / len(pcts))
