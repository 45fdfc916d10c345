"""``argmax``: integer index outputs equal to the reference's, ties going to the first index.

An argmax is exact (comparing floats rounds nothing), so the only freedom a kernel has is which
of several equal maxima it reports. The rule removes that freedom: the smallest index of the
maximum wins. The reference must follow it (``torch.argmax`` does not promise to); then the
check is exact, and a kernel that keeps the last of equal values, or merges partial results in
an order that lets a later index win a tie, fails on the problem's tie cases.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from judge.checkers.base import PASS, Checker, Outcome
from judge.checkers.exact import compare_exact

if TYPE_CHECKING:
    from judge.problem.schema import Arg, Check


class Argmax(Checker):
    name: ClassVar[str] = "argmax"
    rule: ClassVar[str] = (
        "every index equal to the position of the maximum; of equal maxima, the first index wins"
    )

    def validate(self, check: Check, outputs: list[Arg]) -> tuple[str, str] | None:
        from judge.problem import dtypes

        for a in outputs:
            if not dtypes.get(a.dtype).integer:
                return "checker", f"argmax checks integer index outputs; {a.name} is {a.dtype}"
        return None

    def check(
        self, got: dict[str, Any], expected: dict[str, Any], scales: dict[str, Any], spec: Check
    ) -> Outcome:
        for name, g in got.items():
            outcome = compare_exact(
                name, g, expected[name], note=" (the first index of the maximum)"
            )
            if not outcome.passed:
                return outcome
        return PASS


CHECKER = Argmax()
