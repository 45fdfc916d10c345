"""``sorted_stable``: keys in ascending order, values carried with their keys, ties stable.

A stable sort has exactly one right answer: keys ascending, and among equal keys the values in
their input order. The reference gives that answer; this checker compares with it and says
which rule a difference breaks: keys out of order, keys that are not the input's keys (lost
or duplicated), values that did not move with their keys, or equal keys whose values swapped
(the sort was not stable). Options ``keys`` and ``values`` name the two outputs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from judge.checkers.base import (
    PASS,
    Checker,
    Option,
    Outcome,
    as_exact,
    first_difference,
    fmt_value,
    poison_hint,
)

if TYPE_CHECKING:
    from judge.problem.schema import Arg, Check


class SortedStable(Checker):
    name: ClassVar[str] = "sorted_stable"
    rule: ClassVar[str] = (
        "keys ascending; each value stays with its key; equal keys keep their input order"
    )
    options: ClassVar[dict[str, Option]] = {
        "keys": Option("output", True, "the output holding the sorted keys"),
        "values": Option("output", True, "the output holding the values that follow them"),
    }

    def validate(self, check: Check, outputs: list[Arg]) -> tuple[str, str] | None:
        by_name = {a.name: a for a in outputs}
        keys, values = by_name[check.option("keys")], by_name[check.option("values")]
        if keys.name == values.name:
            return "values", "must name a different output than keys"
        if keys.shape != values.shape:
            return "values", f"{values.name} must have the shape of {keys.name}"
        if len(outputs) != 2:
            return "checker", "sorted_stable judges exactly two outputs: keys and values"
        return None

    def check(
        self, got: dict[str, Any], expected: dict[str, Any], scales: dict[str, Any], spec: Check
    ) -> Outcome:
        kname, vname = spec.option("keys"), spec.option("values")
        k_int = not got[kname].is_floating_point()
        v_int = not got[vname].is_floating_point()
        k = as_exact(got[kname])
        ke = as_exact(expected[kname]).to(k.device)
        n = k.numel()
        if n > 1:
            down = k[1:] < k[:-1]
            if bool(down.any()):
                i = int(down.nonzero()[0])
                return Outcome(
                    False,
                    f"{kname}: not in ascending order at [{i + 1}]: {kname}[{i}] = "
                    f"{fmt_value(k[i], k_int)} > {kname}[{i + 1}] = {fmt_value(k[i + 1], k_int)}"
                    f"{poison_hint(got[kname], got[kname].reshape(-1)[i])}",
                )
        bad, i = first_difference(k, ke)
        if bad:
            return Outcome(
                False,
                f"{kname}: sorted, but not the input's keys ({bad} of {n} positions differ; "
                f"first at [{i}]: expected {fmt_value(ke[i], k_int)}, got "
                f"{fmt_value(k[i], k_int)}): a key was lost or written twice"
                f"{poison_hint(got[kname], got[kname].reshape(-1)[i])}",
            )
        v = as_exact(got[vname])
        ve = as_exact(expected[vname]).to(v.device)
        bad, i = first_difference(v, ve)
        if not bad:
            return PASS
        # The run of keys equal to the key at i: if the value at i belongs to that run, only
        # the order within equal keys is wrong.
        run = (ke == ke[i]).nonzero().reshape(-1)
        lo, hi = int(run[0]), int(run[-1]) + 1
        same_run = bool((ve[lo:hi] == v[i]).any())
        where = f"first at [{i}]: expected {fmt_value(ve[i], v_int)}, got {fmt_value(v[i], v_int)}"
        if same_run and hi - lo > 1:
            why = (
                f"equal keys ({kname} = {fmt_value(ke[i], k_int)} at [{lo}..{hi - 1}]) must "
                "keep their input order: the sort is not stable"
            )
        else:
            why = "each value must move with its key"
        return Outcome(
            False,
            f"{vname}: {bad} of {n} values differ; {where}; {why}"
            f"{poison_hint(got[vname], got[vname].reshape(-1)[i])}",
        )


CHECKER = SortedStable()
