"""``topk``: the k largest values of each row, largest first, and where each came from.

A top-k is exact: its values are only moved, never computed. Its one freedom, the order of
equal values and which of several equal values make the cut at the k-th place, the rule
removes: of equal values the lower index comes first (the reference is a stable descending
sort, cut at k). The checker compares the values first, saying whether a row is out of order
or holds a wrong value, then the indices, with the tie rule in the message: once the values
are right, a wrong index is nearly always a tie broken the other way.

Options ``values`` and ``indices`` name the two outputs, both ``[rows, k]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from judge.checkers.base import Checker, Option, Outcome, as_exact, fmt_index, fmt_value
from judge.checkers.exact import compare_exact
from judge.problem import dtypes

if TYPE_CHECKING:
    from judge.problem.schema import Arg, Check


class TopK(Checker):
    name: ClassVar[str] = "topk"
    rule: ClassVar[str] = (
        "each row's k largest values, largest first, with their indices; "
        "of equal values the lower index comes first"
    )
    options: ClassVar[dict[str, Option]] = {
        "values": Option("output", True, "the output holding the k largest values of each row"),
        "indices": Option("output", True, "the output holding their column indices"),
    }

    def validate(self, check: Check, outputs: list[Arg]) -> tuple[str, str] | None:
        by_name = {a.name: a for a in outputs}
        values, indices = by_name[check.option("values")], by_name[check.option("indices")]
        if values.name == indices.name:
            return "indices", "must name a different output than values"
        if not dtypes.get(indices.dtype).integer:
            return "indices", f"{indices.name} must be an integer output, not {indices.dtype}"
        if values.shape != indices.shape:
            return "indices", f"{indices.name} must have the shape of {values.name}"
        if len(outputs) != 2:
            return "checker", "topk judges exactly two outputs: values and indices"
        return None

    def check(
        self, got: dict[str, Any], expected: dict[str, Any], scales: dict[str, Any], spec: Check
    ) -> Outcome:
        vname, iname = spec.option("values"), spec.option("indices")
        vals = got[vname]
        shape = tuple(vals.shape)
        flat = as_exact(vals)
        rows = flat.reshape(-1, shape[-1]) if flat.numel() else flat.reshape(0, 1)
        # NaN compares false both ways, so a NaN (an unwritten value) is left to compare_exact.
        rising = rows[:, 1:] > rows[:, :-1]
        if bool(rising.any()):
            r, j = (int(t) for t in rising.nonzero()[0])
            at = r * shape[-1] + j + 1
            return Outcome(
                False,
                f"{vname}: not in descending order at {fmt_index(at, shape)}: "
                f"{fmt_value(rows[r, j + 1], False)} follows {fmt_value(rows[r, j], False)}",
            )
        outcome = compare_exact(
            vname, vals, expected[vname], note=" (the k largest, largest first)"
        )
        if not outcome.passed:
            return outcome
        return compare_exact(
            iname,
            got[iname],
            expected[iname],
            note=" (where that value is; of equal values the lower index comes first)",
        )


CHECKER = TopK()
