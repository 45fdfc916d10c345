"""The gradebook: for each student and each problem of each assignment, the best counted
submission's verdict, time, score and late flag, and each student's total.

What counts: the student's ranked (``submit``), judged, not hidden submissions of that problem
in the languages the assignment counts for it (``assignments.counted_languages``: those named,
else the kernel track's, so a PyTorch ``torch.add`` earns nothing where kernels are asked for),
graded on the class's GPU kind, made after the assignment opened and before its due time, or
before its hard deadline under a late policy (times the late factor). Submissions after that
are graded as usual and shown as late, and score nothing.

The score of a counted accepted submission (``cell_score``): a correctness rule gives full
points; a speed rule gives full points at up to ``FULL_AT`` times the reference, the fastest
editorial among the counted languages (the judge's timings of the problem's editorial
solutions on the class's GPU kind, ``editorial.fastest``), falling linearly to ``FLOOR`` of the
points at ``HALF_AT`` times and staying there beyond. A language without an editorial of its
own is timed against that reference too. Only without any reference (the CPU interpreter, or
no editorial measured yet: the same for every student) does a speed rule fall back to
correctness, and the cell says it is untimed. The cell shows the counted submission: its
verdict, its time, its score.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select as sa_select
from sqlmodel import Session, col

from app import unavailable
from app.classes import assignments, editorial, service
from app.classes.models import Assignment, AssignmentProblem, Course, Rule
from app.models import Mode, Status, Submission, User

FULL_AT = 1.1  # at most 1.1x the editorial's time: full points
HALF_AT = 3.0  # 3x or slower: FLOOR of the points
FLOOR = 0.5


def speed_factor(ratio: float) -> float:
    """Fraction of the points for a time ``ratio`` x the editorial's."""
    if ratio <= FULL_AT:
        return 1.0
    if ratio >= HALF_AT:
        return FLOOR
    return 1.0 - (1.0 - FLOOR) * (ratio - FULL_AT) / (HALF_AT - FULL_AT)


def cell_score(
    rule: str, points: float, accepted: bool, score_ms: float | None, reference: float | None
) -> tuple[float, bool]:
    """(points earned before the late factor, whether a speed rule had no timing to use)."""
    if not accepted:
        return 0.0, False
    if rule != Rule.SPEED:
        return points, False
    if score_ms is None or not reference:
        return points, True
    return points * speed_factor(score_ms / reference), False


@dataclass
class Column:
    assignment: Assignment
    problem: AssignmentProblem

    @property
    def key(self) -> str:
        return f"{self.assignment.id}:{self.problem.problem}"

    @property
    def label(self) -> str:
        return f"{self.assignment.title} / {self.problem.problem}"


@dataclass
class Cell:
    points: float
    score: float = 0.0
    verdict: str | None = None  # of the counted submission; else of the newest one
    best_ms: float | None = None  # the counted (best-scoring) submission's time, not the fastest
    late: bool = False  # the counted submission came after the due time
    untimed: bool = False  # speed rule without a timing: graded on correctness
    submission_id: int | None = None
    attempts: int = 0  # judged submissions in the window, late ones included


@dataclass
class Row:
    user: User
    cells: dict[str, Cell] = field(default_factory=dict)

    @property
    def total(self) -> float:
        return round(sum(c.score for c in self.cells.values()), 2)


@dataclass
class Gradebook:
    course: Course
    columns: list[Column]
    rows: list[Row]

    @property
    def out_of(self) -> float:
        return round(sum(c.problem.points for c in self.columns), 2)

    def row_of(self, user_id: int) -> Row | None:
        return next((r for r in self.rows if r.user.id == user_id), None)


def _columns(session: Session, course: Course) -> list[Column]:
    return [
        Column(a, p)
        for a in service.assignments(session, course.id or 0)
        for p in assignments.problems(session, a.id or 0)
    ]


def _submissions(
    session: Session, user_ids: list[int], problems: list[str], gpu_kind: str
) -> list[tuple[int, int, str, str, str | None, float | None, datetime]]:
    """(id, user, problem, language, verdict, score_ms, created_at) of judged ranked rows: not
    those the workers could not grade (``unavailable``), which are no attempt."""
    if not user_ids or not problems:
        return []
    rows = session.execute(
        sa_select(
            col(Submission.id),
            col(Submission.user_id),
            col(Submission.problem),
            col(Submission.language),
            col(Submission.verdict),
            col(Submission.score_ms),
            col(Submission.created_at),
        )
        .where(
            col(Submission.user_id).in_(user_ids),
            col(Submission.problem).in_(problems),
            col(Submission.gpu_kind) == gpu_kind,
            col(Submission.mode) == Mode.SUBMIT,
            col(Submission.status) == Status.DONE,
            col(Submission.verdict) != unavailable.VERDICT,
            col(Submission.hidden).is_(False),
        )
        .order_by(col(Submission.id))
    ).all()
    return [tuple(r) for r in rows]


def build(session: Session, course: Course, only_user: int | None = None) -> Gradebook:
    """The class's gradebook (one student's row only, with ``only_user``)."""
    assert course.id is not None
    columns = _columns(session, course)
    people = service.students(session, course.id)
    if only_user is not None:
        people = [u for u in people if u.id == only_user]
    slugs = sorted({c.problem.problem for c in columns})
    refs = editorial.reference_ms(session, slugs, course.gpu_kind)
    subs = _submissions(session, [u.id for u in people if u.id], slugs, course.gpu_kind)
    by_user: dict[int, list[tuple[int, int, str, str, str | None, float | None, datetime]]] = {}
    for s in subs:
        by_user.setdefault(s[1], []).append(s)
    rows = []
    for u in people:
        row = Row(u)
        mine = by_user.get(u.id or 0, [])
        for c in columns:
            counted = assignments.counted_languages(c.problem)
            ref = editorial.fastest(refs, c.problem.problem, counted)
            here = [s for s in mine if s[2] == c.problem.problem and s[3] in counted]
            row.cells[c.key] = _cell(c, here, ref)
        rows.append(row)
    return Gradebook(course, columns, rows)


def _cell(
    c: Column,
    subs: list[tuple[int, int, str, str, str | None, float | None, datetime]],
    reference: float | None,
) -> Cell:
    """The counted submission is the highest-scoring one (the earliest of equals); when
    nothing scores, the cell shows the newest attempt (its verdict and late flag)."""
    cell = Cell(points=c.problem.points)
    best: tuple[float, int] | None = None  # (score, -id)
    newest: tuple[int, str | None, bool] | None = None
    for sid, _, _problem, _language, verdict, score_ms, created in subs:
        w = assignments.window(c.assignment, created)
        if created < c.assignment.opens_at:
            continue  # made before the assignment opened: not work for it
        cell.attempts += 1
        newest = (sid, verdict, w.late)
        accepted = verdict == "accepted"
        raw, untimed = cell_score(c.problem.rule, c.problem.points, accepted, score_ms, reference)
        score = round(raw * w.factor, 2)
        if not (w.counts and accepted):
            continue
        if score > 0 and (best is None or (score, -sid) > best):
            best = (score, -sid)
            cell.score, cell.verdict, cell.late = score, verdict, w.late
            cell.untimed, cell.submission_id, cell.best_ms = untimed, sid, score_ms
    if best is None and newest is not None:
        cell.submission_id, cell.verdict, cell.late = newest
    return cell
