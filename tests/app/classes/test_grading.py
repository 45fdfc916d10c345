"""Class grading rules without the web: the speed score, deadlines' windows, the speed rule
against an editorial run, the editorial requests, and the similarity fingerprints."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.classes import assignments, editorial, grades, service, similarity
from app.classes.models import Assignment, EditorialRun, Rule
from app.classes.schemas import AssignmentCreate, CourseCreate, Deadlines, ProblemRule
from app.models import Submission, User
from app.problems import ProblemRegistry
from tests.class_factories import judged
from tests.conftest import FIXTURE_PROBLEMS, ROOT

NOW = datetime.now(UTC).replace(microsecond=0)


def test_speed_factor_full_then_linear_then_half() -> None:
    assert grades.speed_factor(0.5) == 1.0 and grades.speed_factor(1.1) == 1.0
    assert grades.speed_factor(2.05) == pytest.approx(0.75)
    assert grades.speed_factor(3.0) == 0.5 and grades.speed_factor(40) == 0.5
    assert grades.cell_score("speed", 10, False, 1.0, 1.0) == (0.0, False)
    assert grades.cell_score("speed", 10, True, 2.05, 1.0) == (pytest.approx(7.5), False)
    assert grades.cell_score("speed", 10, True, None, 1.0) == (10, True)  # untimed
    assert grades.cell_score("correctness", 10, True, 99.0, 1.0) == (10, False)


def test_windows_and_states() -> None:
    a = Assignment(
        course_id=1,
        title="t",
        opens_at=NOW,
        due_at=NOW + timedelta(days=1),
        late_until=NOW + timedelta(days=2),
        late_factor=0.25,
        timezone="Asia/Tokyo",
    )
    assert assignments.window(a, NOW - timedelta(seconds=1)).counts is False
    assert assignments.window(a, NOW + timedelta(days=1)) == assignments.Window(True, False, 1.0)
    assert assignments.window(a, NOW + timedelta(days=1, seconds=1)) == assignments.Window(
        True, True, 0.25
    )
    assert assignments.window(a, NOW + timedelta(days=3)) == assignments.Window(False, True, 0.0)
    assert [assignments.state(a, NOW + timedelta(days=d)) for d in (-1, 0.5, 1.5, 3)] == [
        "upcoming",
        "open",
        "late",
        "closed",
    ]
    shown = assignments.local(a, datetime(2027, 1, 1, 0, 0, tzinfo=UTC))
    assert shown == "2027-01-01 09:00 JST"
    with pytest.raises(ValueError, match="unknown time zone"):
        Deadlines(opens_at=NOW, due_at=NOW + timedelta(days=1), timezone="Nowhere/Else")


def _class(engine: Engine, kind: str) -> tuple[int, int]:
    with Session(engine) as s:
        prof = User(username="prof", password_hash="x", is_instructor=True)
        kid = User(username="kid", password_hash="x")
        s.add(prof)
        s.add(kid)
        s.commit()
        course = service.create_course(
            s, prof, CourseCreate(name="C", gpu_kind=kind), ["cpu", "h100"]
        )
        service.join(s, kid, course.invite_code)
        return course.id or 0, prof.id or 0


def test_speed_rule_against_the_editorial_run(engine: Engine) -> None:
    cid, prof = _class(engine, "h100")
    reg = ProblemRegistry(FIXTURE_PROBLEMS)
    reg.reload()
    with Session(engine) as s:
        course = service.get_course(s, cid, s.get(User, prof))
        assignments.create(
            s,
            course,
            AssignmentCreate(
                title="speed",
                opens_at=NOW - timedelta(days=1),
                due_at=NOW + timedelta(days=1),
                problems=[ProblemRule(problem="toy-add", rule=Rule.SPEED, points=20)],
            ),
            reg,
        )
    # No editorial timing yet: graded on correctness, flagged untimed.
    judged(engine, "kid", NOW - timedelta(hours=2), score_ms=2.05, gpu_kind="h100")
    with Session(engine) as s:
        cell = next(
            iter(
                grades.build(s, service.get_course(s, cid, s.get(User, prof)))
                .rows[0]
                .cells.values()
            )
        )
        assert (cell.score, cell.untimed, cell.best_ms) == (20, True, 2.05)
    ref = judged(
        engine, "prof", NOW - timedelta(hours=3), score_ms=1.0, gpu_kind="h100", hidden=True
    )
    with Session(engine) as s:
        s.add(
            EditorialRun(problem="toy-add", gpu_kind="h100", language="triton", submission_id=ref)
        )
        s.commit()
        book = grades.build(s, service.get_course(s, cid, s.get(User, prof)))
        cell = next(iter(book.rows[0].cells.values()))
        assert (cell.score, cell.untimed) == (15, False)  # 2.05x: three quarters of 20
        assert [r.user.username for r in book.rows] == ["kid"]
    # A faster one replaces it.
    fast = judged(engine, "kid", NOW - timedelta(hours=1), score_ms=1.05, gpu_kind="h100")
    with Session(engine) as s:
        cell = next(
            iter(
                grades.build(s, service.get_course(s, cid, s.get(User, prof)))
                .rows[0]
                .cells.values()
            )
        )
        assert (cell.score, cell.submission_id, cell.best_ms) == (20, fast, 1.05)


def test_editorial_requests_submit_the_fast_solutions_hidden(engine: Engine) -> None:
    _cid, prof = _class(engine, "h100")
    reg = ProblemRegistry(ROOT / "problems")
    reg.reload()
    sent: list[tuple[int, str]] = []
    with Session(engine) as s:
        user = s.get(User, prof)
        assert user is not None
        kernels = {"vector-add": ["triton", "cuda", "pytorch"]}  # no PyTorch editorial
        ids = editorial.request(s, reg, user, kernels, "h100", lambda i, k, m: sent.append((i, k)))
        assert len(ids) == 2 and sorted(k for _, k in sent) == ["h100", "h100"]
        subs = [s.get(Submission, i) for i in ids]
        assert {x.language for x in subs if x} == {"triton", "cuda"}
        assert all(x and x.hidden and x.user_id == prof for x in subs)
        src = (ROOT / "problems/vector-add/solutions/accepted/triton_fast.py").read_text()
        assert any(x and x.source == src for x in subs)
        # Pending runs are not sent twice; a CPU class gets none (no timings there).
        assert editorial.request(s, reg, user, kernels, "h100", lambda i, k, m: None) == []
        assert editorial.request(s, reg, user, kernels, "cpu", lambda i, k, m: None) == []
        # Only the languages the assignment counts are timed.
        only = {"vector-add": ["pytorch"]}
        assert editorial.request(s, reg, user, only, "a100", lambda i, k, m: None) == []
        assert len(s.exec(select(EditorialRun)).all()) == 2


VECTOR_ADD = (ROOT / "problems/vector-add/solutions/accepted/triton_simple.py").read_text()


def test_fingerprints_ignore_names_numbers_comments_and_layout() -> None:
    disguised = (
        VECTOR_ADD.replace("add_kernel", "my_sum")
        .replace("BLOCK", "TILE")
        .replace("1024", "512")
        .replace("    ", "  ")
        + "\n# written by me, honestly\n"
    )
    a, b = (
        similarity.fingerprints(VECTOR_ADD, "triton"),
        similarity.fingerprints(disguised, "triton"),
    )
    assert len(a) >= similarity.MIN_FINGERPRINTS and similarity.similarity(a, b) == 1.0
    other = (ROOT / "problems/softmax/solutions/accepted/triton_simple.py").read_text()
    assert similarity.similarity(a, similarity.fingerprints(other, "triton")) < 0.5
    cuda = (ROOT / "problems/vector-add/solutions/accepted/cuda_simple.cu").read_text()
    assert similarity.tokens(cuda, "cuda")[:3] == ["__global__", "void", "N"]
    assert similarity.similarity(frozenset({1}), frozenset({1})) == 0.0  # too short to judge


def test_similar_pairs_of_students(engine: Engine, tmp_path: Path) -> None:
    cid, prof = _class(engine, "cpu")
    with Session(engine) as s:
        for name in ("twin", "loner"):
            u = User(username=name, password_hash="x")
            s.add(u)
            s.commit()
            service.join(s, u, service.get_course(s, cid, s.get(User, prof)).invite_code)
        a = Assignment(
            course_id=cid,
            title="a",
            opens_at=NOW - timedelta(days=1),
            due_at=NOW + timedelta(days=1),
        )
        s.add(a)
        s.commit()
        s.refresh(a)
    renamed = VECTOR_ADD.replace("offs", "idx")
    other = (ROOT / "problems/vector-add/solutions/accepted/triton_fast.py").read_text()
    k1 = judged(engine, "kid", NOW, source=VECTOR_ADD)
    t1 = judged(engine, "twin", NOW, source=renamed)
    judged(engine, "loner", NOW, source=other.replace("num_warps=8", "num_warps=4") + "\n" * 3)
    judged(engine, "loner", NOW, verdict="wrong_answer", source=VECTOR_ADD)  # not accepted
    with Session(engine) as s:
        found = similarity.pairs(s, a, ["toy-add"], {}, "cpu", threshold=0.95)
        assert [(p.user_a, p.user_b, p.score) for p in found] == [("kid", "twin", 1.0)]
        assert {found[0].submission_a, found[0].submission_b} == {k1, t1}
        # Code everyone was given does not count: with the whole file as the starter, no pair.
        assert (
            similarity.pairs(s, a, ["toy-add"], {("toy-add", "triton"): VECTOR_ADD}, "cpu", 0.5)
            == []
        )
