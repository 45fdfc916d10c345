"""``compaction``: the kept elements, in their input order, and how many there are.

Stream compaction writes the elements that pass a test to the front of an output, in input
order, and their count to a one-element output. The count is checked first, then the first
``count`` elements exactly (they are copies, not computed). What lies beyond the count is not
part of the answer and is not read. The reference returns the output at full length with NaN
(integer outputs: the poison value, dtypes.py) beyond the count, so the referee's probes for
unwritten outputs skip those positions. Options ``values`` and ``count`` name the two outputs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from judge.checkers.base import PASS, Checker, Option, Outcome, poison_hint
from judge.checkers.exact import compare_exact
from judge.problem import dtypes

if TYPE_CHECKING:
    from judge.problem.schema import Arg, Check


class Compaction(Checker):
    name: ClassVar[str] = "compaction"
    rule: ClassVar[str] = (
        "count equal to the number of kept elements; the first count outputs are the kept "
        "elements in input order; what follows is ignored"
    )
    options: ClassVar[dict[str, Option]] = {
        "values": Option("output", True, "the output the kept elements are written to"),
        "count": Option("output", True, "the one-element integer output holding their number"),
    }

    def validate(self, check: Check, outputs: list[Arg]) -> tuple[str, str] | None:
        by_name = {a.name: a for a in outputs}
        values, count = by_name[check.option("values")], by_name[check.option("count")]
        if values.name == count.name:
            return "count", "must name a different output than values"
        if not dtypes.get(count.dtype).integer or count.shape not in (("1",), ()):
            return "count", f'{count.name} must be an integer output of shape ["1"]'
        if len(outputs) != 2:
            return "checker", "compaction judges exactly two outputs: values and count"
        return None

    def check(
        self, got: dict[str, Any], expected: dict[str, Any], scales: dict[str, Any], spec: Check
    ) -> Outcome:
        vname, cname = spec.option("values"), spec.option("count")
        want = int(expected[cname].reshape(-1)[0])
        have = got[cname].reshape(-1)[0]
        if int(have) != want:
            return Outcome(
                False,
                f"{cname}: expected {want} kept elements, got {int(have)}"
                f"{poison_hint(got[cname], have)}",
            )
        out = got[vname].reshape(-1)[:want]
        outcome = compare_exact(vname, out, expected[vname].reshape(-1)[:want])
        if outcome.passed:
            return PASS
        return Outcome(
            False,
            f"{outcome.message} (the first {cname} = {want} elements must be the kept ones, "
            "in input order)",
        )


CHECKER = Compaction()
