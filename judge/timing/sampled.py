"""Timed runs checked at secret sampled positions, for problems whose full reference is slow.

Every timed call of a benchmark gets inputs drawn afresh from a secret seed, so no submission can
replay an earlier answer, and its outputs are checked before its time counts. With a full float64
reference that check can cost far more than the kernel: flash-attention's reference takes ~0.1 s
per call on an H100 (two DGEMMs and a softmax over b·h·s² scores in float64), so 24 timed calls
spent 2.6 s of a 4.2 s grading computing expected values against ~60 ms of attention
(benchmarks/README.md, 'Where grading time goes').

A problem may therefore define, next to ``reference``, ::

    def reference_sample(inputs, params, gen) -> dict[str, tuple[Tensor, Tensor]]

the expected values of each output at positions it picks with ``gen`` (a generator seeded from
the referee's secret): ``{output name: (flat int64 indices, float64 values)}``, optionally a third
element with the error scale there (as ``error_scale`` would give). The referee then, on timed
calls only:

- still draws fresh inputs for every call (generation is cheap);
- checks every output element for NaN/Inf (poisoned, i.e. unwritten, or blown up) — a problem
  that defines the hook promises finite expected outputs everywhere;
- checks the sampled positions against the tolerance, and reads its end-of-call probes there.

The untimed first call of each benchmark case and every test case are still checked in full. A
kernel that computes less, or differently, on timed calls is wrong at positions it cannot know in
advance (new ones every call); one wrong in a fraction f of its outputs survives a call with
probability (1 - f)^k for k sampled positions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judge.checkers import outputs
from judge.problem.schema import Check, Problem, ProblemError

HOOK = "reference_sample"


@dataclass
class Sampled:
    """An output's expected values at sampled flat positions (all on the referee's device)."""

    idx: Any  # int64[k]
    values: Any  # float64[k]
    scale: Any | None  # float64[k], or None: |values|


def available(ref: Any) -> bool:
    return callable(getattr(ref, HOOK, None))


def make(
    ref: Any, problem: Problem, inputs: dict[str, Any], params: dict[str, int], gen: Any
) -> dict[str, Sampled]:
    """The hook's answer, validated: a wrong answer is the problem folder's error, named."""
    import torch

    where = problem.path / "reference.py"
    got = getattr(ref, HOOK)(dict(inputs), dict(params), gen)
    if not isinstance(got, dict):
        raise ProblemError(where, HOOK, "must return a dict {output name: (indices, values)}")
    out: dict[str, Sampled] = {}
    for a in problem.outputs:
        item = got.get(a.name)
        if not isinstance(item, tuple) or len(item) not in (2, 3):
            raise ProblemError(
                where, HOOK, f"output {a.name!r}: expected (indices, values[, scale])"
            )
        idx, values = item[0], item[1]
        scale = item[2] if len(item) == 3 else None
        numel = 1
        for n in problem.shape(a, params):
            numel *= n
        ok = (
            isinstance(idx, torch.Tensor)
            and idx.dtype == torch.int64
            and idx.dim() == 1
            and idx.numel() > 0
            and isinstance(values, torch.Tensor)
            and values.shape == idx.shape
            and (scale is None or (isinstance(scale, torch.Tensor) and scale.shape == idx.shape))
            and int(idx.min()) >= 0
            and int(idx.max()) < numel
        )
        if not ok:
            raise ProblemError(
                where,
                HOOK,
                f"output {a.name!r}: indices must be a non-empty int64 vector within the output's "
                f"{numel} elements, values (and scale) of the same length",
            )
        out[a.name] = Sampled(
            idx,
            values.to(torch.float64),
            None if scale is None else scale.to(torch.float64),
        )
    return out


def compare(name: str, got: Any, s: Sampled, check: Check) -> tuple[bool, str, float]:
    """The whole output finite, then the sampled positions within tolerance."""
    import torch

    flat = got.reshape(-1)
    bad = ~torch.isfinite(flat)
    if bool(bad.any()):
        i = int(torch.nonzero(bad)[0])
        unwritten = (
            " (the output is poisoned with NaN before each call: was it written?)"
            if bool(torch.isnan(flat[i]))
            else ""
        )
        return (
            False,
            f"{name}: {int(bad.sum())} of {flat.numel()} values are NaN or Inf, first at flat "
            f"index {i}{unwritten}",
            float("inf"),
        )
    picked = flat[s.idx]
    scale = s.scale if s.scale is not None else s.values.abs()
    ok, message, err = outputs.compare(name, picked, s.values, scale, check)
    if not ok:
        message = f"{message} (checked at {s.idx.numel()} secret positions of this timed run)"
    return ok, message, err


def probe_positions(flat: Any, s: Sampled, count: int, gen: Any | None = None) -> tuple[Any, Any]:
    """``count`` of the sampled positions (where the answer is finite) for the end-of-call probe."""
    import torch

    pick = torch.randint(0, s.idx.numel(), (count,), device=s.idx.device, generator=gen)
    return s.idx[pick].to(flat.device), torch.isfinite(s.values[pick]).to(flat.device)
