"""``exact``: every output equal to the reference, element for element.

For integer outputs (counts, scans, indices) and for floats that are only moved, never
computed (a transpose, a gather): there is no rounding to allow for, so any difference is a
bug. Floats compare by value (``-0.0 == 0.0``; NaN matches NaN).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from judge.checkers.base import (
    PASS,
    Checker,
    Outcome,
    as_exact,
    first_difference,
    fmt_index,
    fmt_value,
    poison_hint,
)
from judge.problem import dtypes

if TYPE_CHECKING:
    from judge.problem.schema import Check


class Exact(Checker):
    name: ClassVar[str] = "exact"
    rule: ClassVar[str] = "every element equal to the exact result"

    def check(
        self, got: dict[str, Any], expected: dict[str, Any], scales: dict[str, Any], spec: Check
    ) -> Outcome:
        for name, g in got.items():
            outcome = compare_exact(name, g, expected[name])
            if not outcome.passed:
                return outcome
        return PASS


def compare_exact(name: str, got: Any, expected: Any, note: str = "") -> Outcome:
    """One output against its expected values; ``note`` follows the expected value."""
    integer = dtypes.of_tensor(got).integer
    g = as_exact(got)
    e = as_exact(expected).to(g.device)
    n, i = first_difference(g, e)
    if not n:
        return PASS
    shape = tuple(got.shape)
    return Outcome(
        False,
        f"{name}: {n} of {g.numel()} values differ; first at {fmt_index(i, shape)}: "
        f"expected {fmt_value(e[i], integer)}{note}, got {fmt_value(g[i], integer)}"
        f"{poison_hint(got, got.reshape(-1)[i], i)}",
    )


CHECKER = Exact()
