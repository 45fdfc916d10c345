"""On the CPU device a time_limit_exceeded is confirmed against the runner's CPU time before it
is returned (grader.grade): a submission that spins is not graded again; one whose runner got
(almost) no CPU during its limit is graded once more, once only, and the result says so."""

from __future__ import annotations

import dataclasses
import signal
from pathlib import Path
from typing import Any

import pytest

from judge import grader
from judge.problem import loader
from judge.problem.schema import Problem
from judge.results import GradeResult
from judge.sandbox import messages
from judge.sandbox.runner_client import RunnerClient
from judge.verdicts import Verdict

REPO = Path(__file__).resolve().parents[2]
HONEST = REPO / "problems/vector-add/solutions/accepted/triton_simple.py"
SPIN = "def solve(a, b, c, n):\n    while True:\n        pass\n"


def _problem() -> Problem:
    """vector-add, two small interpreter cases, a first call limited to 2 + 2 s."""
    p = loader.resolve("vector-add")
    p = dataclasses.replace(p, tests=tuple(c for c in p.tests if c.interpreter)[:2])
    return dataclasses.replace(p, limits=dataclasses.replace(p.limits, call_s=2.0, compile_s=2.0))


def _grade(source: str) -> GradeResult:
    return grader.grade(_problem(), source, "triton", device="cpu", mode="submit", sanitize=False)


@pytest.fixture
def stopped(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Stops the runner (SIGSTOP, its whole tree) right after each of the first ``stops[0]``
    gradings sends its first call, so that it gets no CPU before its limit runs out: a
    starved runner, as on a machine that gives it none. Returns the list to set that count in."""
    stops = [0]
    send = RunnerClient.send
    seen: list[RunnerClient] = []  # the runners already past their first call

    def send_then_stop(self: RunnerClient, msg: messages.Request, **kw: Any) -> None:
        send(self, msg, **kw)
        if msg.get("op") == "call" and self not in seen:
            seen.append(self)
            if stops[0] > 0:
                stops[0] -= 1
                self.proc.signal_tree(signal.SIGSTOP)

    monkeypatch.setattr(RunnerClient, "send", send_then_stop)
    return stops


@pytest.mark.timeout(300)
def test_a_starved_runner_is_graded_once_more_and_gets_its_verdict(stopped: list[int]) -> None:
    stopped[0] = 1
    res = _grade(HONEST.read_text())
    assert res.verdict == Verdict.ACCEPTED, res.message
    assert res.phases["tle_retried"] == 1
    assert res.phases["tle_first_cpu_s"] < 1.0


@pytest.mark.timeout(300)
def test_a_runner_starved_twice_is_graded_twice_only(stopped: list[int]) -> None:
    stopped[0] = 3
    res = _grade(HONEST.read_text())
    assert res.verdict == Verdict.TIME_LIMIT_EXCEEDED
    assert res.phases["tle_retried"] == 1
    assert stopped[0] == 1  # two gradings, the third stop never used


@pytest.mark.timeout(300)
def test_a_submission_that_spins_is_not_graded_again(stopped: list[int]) -> None:
    res = _grade(SPIN)
    assert res.verdict == Verdict.TIME_LIMIT_EXCEEDED
    assert "tle_retried" not in res.phases, res.phases


@pytest.mark.parametrize(
    ("verdict", "ran", "starved"),
    [
        (Verdict.TIME_LIMIT_EXCEEDED, 0.2, True),
        (Verdict.TIME_LIMIT_EXCEEDED, 4.9, True),
        (Verdict.TIME_LIMIT_EXCEEDED, 5.0, False),
        (Verdict.TIME_LIMIT_EXCEEDED, 9.8, False),
        (Verdict.RUNTIME_ERROR, 0.2, False),
    ],
)
def test_only_a_time_out_well_under_its_cpu_time_is_not_confirmed(
    verdict: Verdict, ran: float, starved: bool
) -> None:
    res = GradeResult(verdict, "vector-add", "triton", "cpu-interpreter")
    assert grader._starved(res, ran, 10.0) is starved
