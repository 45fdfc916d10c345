"""What every checker is: a named, small unit that compares all of a case's outputs at once.

A checker sees the submission's outputs and the expected ones (by name, in signature order)
and the problem's ``[check]`` settings, and answers with an ``Outcome``. Its message names the
output, how it is wrong, where (the index) and expected vs got there; it never prints inputs,
so hidden test data stays hidden. DMOJ's ``checkers/`` is the model: one module per way of
judging, chosen by name in the problem folder (``[check] checker = "exact"``).

A checker declares the options it reads from ``[check]``: numbers (tolerances) and names of
outputs (which output holds the keys of a sort); schema.py reads and validates them, and the
checker's ``validate`` checks what only it knows (an option names an integer output, ...).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from judge.problem import dtypes

if TYPE_CHECKING:
    from judge.problem.schema import Arg, Check


@dataclass(frozen=True)
class Outcome:
    passed: bool
    message: str = ""
    max_error: float = 0.0  # the worst absolute error, for float checks; 0 for exact ones


PASS = Outcome(True)


@dataclass(frozen=True)
class Option:
    kind: Literal["number", "output"]
    required: bool
    doc: str


class Checker:
    """A way of judging outputs. Subclasses set ``name``, ``rule`` and ``options``."""

    name: ClassVar[str]
    rule: ClassVar[str]  # one sentence a learner reads: what counts as right
    options: ClassVar[dict[str, Option]] = {}

    def validate(self, check: Check, outputs: list[Arg]) -> tuple[str, str] | None:
        """(option, what is wrong) when the settings do not fit the signature's outputs."""
        return None

    def check(
        self, got: dict[str, Any], expected: dict[str, Any], scales: dict[str, Any], spec: Check
    ) -> Outcome:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<checker {self.name}>"


def fmt_index(flat: int, shape: tuple[int, ...]) -> str:
    """A flat index written in a tensor's shape: ``[2, 3]``."""
    idx = []
    for dim in reversed(shape):
        idx.append(flat % dim)
        flat //= dim
    return "[" + ", ".join(str(i) for i in reversed(idx)) + "]"


def as_exact(t: Any) -> Any:
    """A flat tensor on which ``==`` is exact: int64 for integers, float64 for floats."""
    import torch

    flat = t.detach().reshape(-1)
    return flat.to(torch.float64) if flat.is_floating_point() else flat.to(torch.int64)


def fmt_value(v: Any, integer: bool) -> str:
    return str(int(v)) if integer else f"{float(v):.7g}"


def poison_hint(t: Any, value: Any, index: int | None = None) -> str:
    """The note added when a wrong value is the output's poison: it was probably never written
    (for a NaN at flat ``index``: never written, or computed)."""
    d = dtypes.of_tensor(t)
    if d.integer and int(value) == d.poison_int:
        return f" (the output is filled with {d.poison_text} before each call: was it written?)"
    if not d.integer and value != value:  # NaN
        return NAN_HINT if index is None else nan_hint(t, index)
    return ""


NAN_HINT = " (the output is poisoned with NaN before each call: was it written?)"
UNWRITTEN_HINT = (
    " (still the NaN the output is filled with before each call, bit for bit: was it written?)"
)
COMPUTED_HINT = (
    " (a NaN your kernel computed, not the untouched poison: from 0/0, inf - inf, or from reading"
    " the output before setting it, as it holds NaN before each call)"
)


def nan_hint(t: Any, index: int) -> str:
    """For a NaN at flat ``index`` of output ``t``: never written, or computed by the kernel."""
    still = dtypes.still_poison(t, index)
    return NAN_HINT if still is None else UNWRITTEN_HINT if still else COMPUTED_HINT


def first_difference(got: Any, expected: Any) -> tuple[int, int]:
    """(how many elements differ, the first flat index that does) of two exact flat tensors;
    NaN equals NaN."""
    import torch

    same = got == expected
    if got.is_floating_point():
        same |= torch.isnan(got) & torch.isnan(expected)
    diff = ~same
    n = int(diff.sum())
    return n, (int(torch.nonzero(diff)[0]) if n else -1)
