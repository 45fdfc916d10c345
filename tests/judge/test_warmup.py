"""A GPU worker's warm-up (warmup.py): which sample it grades, that learners go first, that a
failure never stops it. The grading itself is the real grader's; here a recorder stands in for
it, because what is tested is the order and the choice, not a grading."""

from __future__ import annotations

import threading
import time

import pytest

from judge import warmup
from judge.problem import loader
from judge.problem.schema import Problem
from judge.verdicts import Verdict


def test_every_problem_warms_with_its_accepted_editorial() -> None:
    for p in loader.load_all().problems:
        path = warmup.editorial(p)
        assert path is not None, p.slug
        sample = next(s for s in p.samples if s.path == path)
        assert sample.language == "triton" and sample.expected == Verdict.ACCEPTED
        if (p.path / "solutions" / "accepted" / warmup.EDITORIAL).exists():
            assert path.name == warmup.EDITORIAL


def test_warm_grades_each_problem_once_and_survives_a_failure() -> None:
    seen: list[str] = []

    def grade(problem: Problem, source: str) -> str:
        seen.append(problem.slug)
        assert "@triton.jit" in source
        if problem.slug == "softmax":
            raise RuntimeError("a broken reference")
        return "wrong_answer" if problem.slug == "reduction" else "accepted"

    done = warmup.warm(grade, warmup.Gate(), only=["vector-add", "softmax", "reduction"])
    assert sorted(seen) == ["reduction", "softmax", "vector-add"]
    assert done["vector-add"]["verdict"] == "accepted"
    assert done["reduction"]["verdict"] == "wrong_answer"  # logged, not fatal
    assert "RuntimeError" in str(done["softmax"]["error"])


def test_a_learner_waiting_goes_before_the_next_problem() -> None:
    """Warm-up holds the gate for one problem at a time; a learner who arrives meanwhile is
    graded before warm-up's next problem."""
    gate = warmup.Gate()
    order: list[str] = []
    first_started = threading.Event()
    learner_queued = threading.Event()

    def grade(problem: Problem, source: str) -> str:
        order.append(problem.slug)
        if len(order) == 1:
            first_started.set()
            assert learner_queued.wait(10)
            time.sleep(0.2)  # the learner is now blocked on the gate
        return "accepted"

    def learner() -> None:
        assert first_started.wait(10)
        learner_queued.set()
        with gate.grading():
            order.append("learner")

    t = threading.Thread(target=learner)
    t.start()
    warmup.warm(grade, gate, only=["vector-add", "reduction", "softmax"])
    t.join(10)
    assert order[1] == "learner", order
    assert len(order) == 4


def test_learners_take_turns_with_each_other() -> None:
    gate = warmup.Gate()
    inside = 0
    most = 0
    lock = threading.Lock()

    def learner() -> None:
        nonlocal inside, most
        with gate.grading():
            with lock:
                inside += 1
                most = max(most, inside)
            time.sleep(0.02)
            with lock:
                inside -= 1

    threads = [threading.Thread(target=learner) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert most == 1


@pytest.mark.parametrize(("value", "on"), [("0", False), ("no", False), ("1", True), ("", False)])
def test_the_switch(monkeypatch: pytest.MonkeyPatch, value: str, on: bool) -> None:
    monkeypatch.setenv("KERNELDOJO_WARM", value)
    assert warmup.enabled() is on
