"""Judging a case's outputs: the problem's checker (checkers/) over all of them at once.

A failure names the output, how far off it is, where (the index) and expected vs got there;
it never prints inputs, so hidden test data stays hidden.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from judge import checkers
from judge.checkers import close
from judge.checkers.close import compare

if TYPE_CHECKING:
    from judge.problem.schema import Problem

__all__ = ["check_outputs", "compare", "tolerance_ratio"]


def check_outputs(
    problem: Problem, got: dict[str, Any], expected: dict[str, Any], scales: dict[str, Any]
) -> tuple[bool, str, float]:
    """(passed, message, worst error) for one case: ``got`` holds every output by name."""
    outcome = checkers.get(problem.check.checker).check(got, expected, scales, problem.check)
    return outcome.passed, outcome.message, outcome.max_error


def tolerance_ratio(
    problem: Problem, got: dict[str, Any], expected: dict[str, Any], scales: dict[str, Any]
) -> float | None:
    """How near its tolerance a passing result came: the worst |got - expected| over what the
    ``close`` check allows there (atol + rtol * scale), across every output; 0.3 means the worst
    element used 30% of its allowance. None for other checkers (exact ones have no tolerance)."""
    if problem.check.checker != "close":
        return None
    worst = 0.0
    for name, g in got.items():
        e = expected[name]
        scale = scales[name] if name in scales else e.abs()
        worst = max(worst, close.tolerance_ratio(g, e, scale, problem.check))
    return worst
