"""Class credit counts the tracks and languages an assignment names (issue 36), timed against
the fastest editorial of those; a language without an editorial of its own is timed too; the
cell shows the submission that counted."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.classes import assignments, grades, service
from app.classes.models import EditorialRun, Rule
from app.classes.schemas import AssignmentCreate, CourseCreate, ProblemRule
from app.models import User
from app.problems import ProblemRegistry
from tests.class_factories import judged
from tests.conftest import FIXTURE_PROBLEMS

NOW = datetime.now(UTC).replace(microsecond=0)


def _course(engine: Engine, rule: Rule, languages: list[str] | None = None, **late: object) -> int:
    reg = ProblemRegistry(FIXTURE_PROBLEMS)
    reg.reload()
    with Session(engine) as s:
        prof = User(username="prof", password_hash="x", is_instructor=True)
        kid = User(username="kid", password_hash="x")
        s.add(prof)
        s.add(kid)
        s.commit()
        course = service.create_course(s, prof, CourseCreate(name="C", gpu_kind="h100"), ["h100"])
        service.join(s, kid, course.invite_code)
        extra = {} if languages is None else {"languages": languages}
        assignments.create(
            s,
            course,
            AssignmentCreate(
                title="w1",
                opens_at=NOW - timedelta(days=2),
                due_at=NOW - timedelta(days=1),
                problems=[ProblemRule(problem="toy-add", rule=rule, points=10, **extra)],
                **late,  # type: ignore[arg-type]
            ),
            reg,
        )
        return course.id or 0


def _cell(engine: Engine, cid: int) -> grades.Cell:
    with Session(engine) as s:
        course = service.find_course(s, str(cid))
        return next(iter(grades.build(s, course).rows[0].cells.values()))


def _editorial(engine: Engine, language: str, ms: float) -> None:
    sid = judged(
        engine, "prof", NOW - timedelta(days=3), score_ms=ms, gpu_kind="h100", language=language
    )
    with Session(engine) as s:
        s.add(
            EditorialRun(problem="toy-add", gpu_kind="h100", language=language, submission_id=sid)
        )
        s.commit()


def test_pytorch_counts_only_where_the_assignment_names_it(engine: Engine) -> None:
    cid = _course(engine, Rule.CORRECTNESS)
    at = NOW - timedelta(days=1, hours=12)
    torch_sub = judged(engine, "kid", at, gpu_kind="h100", language="pytorch")
    cell = _cell(engine, cid)
    assert (cell.score, cell.submission_id) == (0, None)  # the kernel track by default
    kernel = judged(engine, "kid", at, gpu_kind="h100", language="cuda")
    assert (_cell(engine, cid).score, _cell(engine, cid).submission_id) == (10, kernel)
    assert torch_sub != kernel


def test_a_named_framework_track_counts(engine: Engine) -> None:
    cid = _course(engine, Rule.CORRECTNESS, ["framework"])
    sub = judged(
        engine, "kid", NOW - timedelta(days=1, hours=12), gpu_kind="h100", language="pytorch"
    )
    assert (_cell(engine, cid).score, _cell(engine, cid).submission_id) == (10, sub)


def test_unknown_languages_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown language"):
        ProblemRule(problem="toy-add", languages=["cobol"])


def test_speed_is_timed_against_the_fastest_editorial_of_the_named_languages(
    engine: Engine,
) -> None:
    cid = _course(engine, Rule.SPEED, ["triton", "cuda"])
    _editorial(engine, "triton", 2.0)
    _editorial(engine, "cuda", 1.0)
    at = NOW - timedelta(days=1, hours=12)
    # Triton at its own editorial's time is still 2x the fastest editorial (CUDA's).
    judged(engine, "kid", at, score_ms=2.0, gpu_kind="h100", language="triton")
    cell = _cell(engine, cid)
    assert cell.untimed is False and cell.score == pytest.approx(
        10 * grades.speed_factor(2.0), abs=0.01
    )


def test_a_language_without_an_editorial_is_timed_not_free(engine: Engine) -> None:
    cid = _course(engine, Rule.SPEED)  # the kernel track: Triton, CUDA, Numba, Pallas
    _editorial(engine, "triton", 1.0)
    judged(
        engine,
        "kid",
        NOW - timedelta(days=1, hours=12),
        score_ms=30.0,
        gpu_kind="h100",
        language="numba",
    )
    cell = _cell(engine, cid)
    assert cell.untimed is False and cell.score == pytest.approx(10 * grades.FLOOR)


def test_the_cell_shows_the_submission_that_counted(engine: Engine) -> None:
    cid = _course(engine, Rule.CORRECTNESS, late_until=NOW + timedelta(days=1), late_factor=0.5)
    on_time = judged(
        engine, "kid", NOW - timedelta(days=1, hours=12), score_ms=5.0, gpu_kind="h100"
    )
    judged(engine, "kid", NOW - timedelta(hours=1), score_ms=1.0, gpu_kind="h100")  # late, faster
    cell = _cell(engine, cid)
    assert (cell.submission_id, cell.score, cell.late) == (on_time, 10, False)
    assert cell.best_ms == 5.0  # the counted one's time, not the late one's
