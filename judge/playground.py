"""The playground: one custom case, chosen by the learner, run exactly as a test case.

The learner picks the problem's integer parameters (capped by the largest test case the device
runs, so the CPU interpreter stays quick), a seed, and optionally a small literal tensor for an
input (JSON numbers only). The inputs come from the problem's own generator, seeded with that
seed; the call goes through the same sandboxed runner, buffers, guard bands and checker as a
test (cases.py), so nothing here is a second path around the sandbox. What comes back is a
``GradeResult`` dict with one case, plus ``playground``: the first values of each input, of the
submission's outputs and of the reference's, the printed output, and on a GPU the referee's
wall-clock time of one more call. Inputs are the learner's own, so showing them leaks nothing.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from judge import languages
from judge.cases import Cases
from judge.grader import resolve_device
from judge.phases import Session
from judge.playcase import PlaygroundError, check_seed, custom_case, literal_numbers
from judge.problem import loader
from judge.problem.dtypes import DTYPES
from judge.problem.schema import Case, Problem
from judge.sandbox import buffers, messages
from judge.sandbox.runner_client import RunnerPool
from judge.session import Grading, Progress, Stop
from judge.verdicts import Verdict

__all__ = ["PlaygroundError", "literal", "mismatches", "run"]

log = logging.getLogger(__name__)

SHOWN = 256  # values of each tensor shown
# Sizes within the limits can still break a constraint of a problem's (top-k's k <= v, a head
# count that divides another): its generator, reference or checker then fails, and says so.
OUTSIDE = "this case breaks a constraint of the problem's (see its statement)"


def literal(problem: Problem, name: str, value: Any, params: dict[str, int]) -> Any:
    """A literal input as a tensor of the input's dtype and shape (playcase.py checks it)."""
    import torch

    flat = literal_numbers(problem, name, value, params)
    arg = next(a for a in problem.inputs if a.name == name)
    dtype = getattr(torch, DTYPES[arg.dtype].name)
    return torch.tensor(flat, dtype=torch.float64).to(dtype).reshape(problem.shape(arg, params))


def _values(t: Any) -> list[float | int | str]:
    """The first ``SHOWN`` values, JSON-safe (a NaN or an infinity as text)."""
    out: list[float | int | str] = []
    for v in t.detach().reshape(-1)[:SHOWN].cpu().tolist():
        if isinstance(v, float) and not math.isfinite(v):
            out.append(str(v))
        else:
            out.append(v)
    return out


class OneCase(Cases):
    """Cases for the playground: seeded inputs (with the learner's literals), outputs kept."""

    def __init__(self, g: Grading, ch: Any, seed: int, literals: dict[str, Any]) -> None:
        super().__init__(g, ch)
        self.seed, self.literals = seed, literals
        self.shown: dict[str, Any] = {"inputs": {}, "outputs": {}}
        self.call_ms: float | None = None
        self.gate_ms: Callable[[], float] = lambda: 0.0  # the bracket of an empty call

    def make_case(
        self, case: Case, timed: bool = False
    ) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        import torch

        ref = self.reference_module()
        gen = torch.Generator(device=self.g.dev)
        gen.manual_seed(self.seed)
        dev = torch.device(self.g.dev)
        try:  # sizes a problem's generator or reference cannot take (top-k's k > v, ...)
            inputs = loader.call_generate(ref, self.g.problem, case.params, case.kind, gen, dev)
            for name, t in self.literals.items():
                inputs[name] = t.to(dev)
            expected = ref.reference({k: v.clone() for k, v in inputs.items()}, dict(case.params))
        except Exception as e:
            raise Stop(Verdict.REJECTED, f"{OUTSIDE}: {type(e).__name__}: {str(e)[:300]}") from e
        for a in self.g.problem.outputs:
            exp = expected.get(a.name)
            want = list(self.g.problem.shape(a, case.params))
            if isinstance(exp, torch.Tensor) and list(exp.shape) != want:
                raise Stop(
                    Verdict.REJECTED,
                    f"{OUTSIDE}: the reference's {a.name} is {list(exp.shape)}, the signature's "
                    f"{want}",
                )
        scale_fn = getattr(ref, "error_scale", None)
        scales = scale_fn(inputs, dict(case.params), expected) if scale_fn else {}
        for a in self.g.problem.inputs:
            self.shown["inputs"][a.name] = _tensor(inputs[a.name])
        dtypes = {a.name: a.dtype for a in self.g.problem.outputs}
        for name, exp in expected.items():
            # In the output's dtype: what a kernel that rounds only once would store.
            want = getattr(torch, dtypes[name]) if name in dtypes else exp.dtype
            shown = exp.to(want) if isinstance(exp, torch.Tensor) else exp
            self.shown["outputs"][name] = {"expected": _tensor(shown)}
        return inputs, expected, scales

    def check(
        self,
        bufs: dict[str, buffers.SharedBuffer],
        expected: dict[str, Any],
        scales: dict[str, Any],
    ) -> tuple[bool, str, float]:
        for a in self.g.problem.outputs:
            self.shown["outputs"].setdefault(a.name, {})["got"] = _tensor(bufs[a.name].tensor)
        try:
            ok, message, err = super().check(bufs, expected, scales)
        except Exception as e:  # the checker assumes the problem's constraints hold
            raise Stop(Verdict.REJECTED, f"{OUTSIDE}: {type(e).__name__}: {str(e)[:300]}") from e
        if self.g.dev == "cuda" and self.call_ms is None:
            self._time_one(bufs)
        return ok, message, err

    def _time_one(self, bufs: dict[str, buffers.SharedBuffer]) -> None:
        """One more call after the checked one (compiled by then), gated as a benchmark's call
        is (timing/bench.py): the referee's GPU bracket of the call less the bracket of an empty
        one (calibration.py), so neither Python's launch nor the message round trip counts. One
        call, cold L2, no repeats: not the benchmark's protocol, which ranks."""
        del bufs
        call = messages.Call(op="call", case="t1", timed=True)  # run_tests' key for its only case
        if self.ch.gate is None:  # not calibrated: the referee's wall clock
            t0 = time.perf_counter()
            self.call("t1")
            self.call_ms = round((time.perf_counter() - t0) * 1e3, 4)
            return
        msg, bracket, _ = self.ch.gated(self.g.left(self.g.problem.limits.call_s), "running", call)
        self.ch.done(msg)
        if bracket is not None:
            self.call_ms = round(max(0.0, bracket - self.gate_ms()), 4)


def _tensor(t: Any) -> dict[str, Any]:
    return {
        "shape": list(t.shape),
        "dtype": str(t.dtype).removeprefix("torch."),
        "values": _values(t),
    }


def run(
    problem: Problem,
    source: str,
    language: str,
    params: dict[str, int],
    seed: int = 0,
    literals: dict[str, Any] | None = None,
    *,
    device: str = "auto",
    on_progress: Progress | None = None,
    pool: RunnerPool | None = None,
) -> dict[str, Any]:
    """Run ``source`` on the learner's one case. ``PlaygroundError`` for parameters or literals
    it cannot run; otherwise never raises for a bad submission (its verdict says)."""
    if problem.gpus > 1:
        raise PlaygroundError(
            f"{problem.slug} spans {problem.gpus} GPUs and the playground runs one rank: use "
            "Run, which grades every rank (docs/multi-gpu.md)"
        )
    dev = resolve_device(device)
    check_seed(seed)
    case = custom_case(problem, params, dev, language)
    tensors = {k: literal(problem, k, v, case.params) for k, v in (literals or {}).items()}
    one = dataclasses.replace(problem, tests=(case,), benchmarks=())
    lang = languages.get(language)
    runs = dev != "cpu" or lang is None or lang.runs_on_cpu
    runner = pool.acquire() if pool is not None and pool.device == dev and runs else None
    with tempfile.TemporaryDirectory(prefix="kerneldojo-play-") as tmp:
        workdir = runner.workdir if runner is not None else Path(tmp)
        g = Grading(one, source, language, dev, "run", on_progress or (lambda e: None), workdir)
        session = Session(g)
        session.channel.runner = runner
        cases = OneCase(g, session.channel, seed, tensors)
        session.cases = cases
        cases.gate_ms = lambda: session.cal.gate_ms  # measured once the runner has started
        try:
            result = session.run().to_dict()
        except Exception as e:  # a bug of ours: report it, never crash the worker
            log.exception("internal error in the playground for %s", problem.slug)
            g.result.verdict = Verdict.INTERNAL_ERROR
            g.result.message = f"internal error: {type(e).__name__}: {e}"
            result = g.result.to_dict()
        finally:
            if pool is not None and session.channel.runner is not None:
                pool.retire(session.channel.runner)
                session.channel.runner = None
            session.close()
            if runner is not None and pool is not None:
                pool.done()
            elif pool is not None:
                pool.warm()
    result["playground"] = {
        "params": case.params,
        "seed": seed,
        "literals": sorted(tensors),
        "inputs": cases.shown["inputs"],
        "outputs": cases.shown["outputs"],
        "mismatches": mismatches(problem, cases.shown["outputs"]),
        "call_ms": cases.call_ms,
        "shown": SHOWN,
    }
    return result


def mismatches(problem: Problem, shown: dict[str, Any]) -> dict[str, list[int]]:
    """For display only: the shown positions where an output differs from the reference by more
    than the problem's rtol/atol (the verdict is the checker's, which may judge otherwise)."""
    rtol, atol = problem.check.rtol, problem.check.atol
    if rtol == 0.0 and atol == 0.0 and problem.check.max_rel_l2 is not None:
        rtol = problem.check.max_rel_l2  # a norm-wise checker: each value at that scale
    out: dict[str, list[int]] = {}
    for name, pair in shown.items():
        got, exp = pair.get("got", {}).get("values", []), pair.get("expected", {}).get("values", [])
        bad = []
        for i, (x, e) in enumerate(zip(got, exp, strict=False)):
            if isinstance(x, str) or isinstance(e, str):
                if x != e:
                    bad.append(i)
            elif abs(x - e) > atol + rtol * abs(e):
                bad.append(i)
        out[name] = bad
    return out
