"""Test cases: fresh inputs from a secret seed, shared buffers, one call, every output checked.

The referee keeps the expected outputs; the runner sees only the buffers of the arguments
(buffers.py), poisoned where it must write and fenced by guard bands (guards.py). The same
steps serve the untimed first call of a benchmark case (bench.py) and a tool's run
(profile/toolrun.py).
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import time
from collections.abc import Iterator
from typing import Any

from judge.build import autotune
from judge.checkers import outputs
from judge.problem import dtypes, loader
from judge.problem.schema import Case, Problem
from judge.profile.findings import Findings
from judge.results import CaseResult
from judge.sandbox import buffers, cpuwait, guards, messages
from judge.sandbox.channel import Channel
from judge.session import Grading, Stop
from judge.timing import sampled
from judge.verdicts import Verdict

log = logging.getLogger(__name__)


class Cases:
    def __init__(self, g: Grading, ch: Channel) -> None:
        self.g, self.ch = g, ch
        self.ref: Any = None
        self.first_call = True
        self.pattern = guards.Pattern(g.dev)
        self.findings = Findings()  # the CPU interpreter's out-of-bounds findings (profile/)

    @contextlib.contextmanager
    def referee_memory(self) -> Iterator[None]:
        """The referee's own GPU allocations: when the device is out of memory, the runner took it."""
        import torch

        try:
            yield
        except (torch.OutOfMemoryError, buffers.CudaError) as e:
            if isinstance(e, buffers.CudaError) and e.code != buffers.CUDA_ERROR_OUT_OF_MEMORY:
                raise
            self.ch.check_memory("when the judge could not allocate its buffers")
            raise Stop(
                Verdict.MEMORY_LIMIT_EXCEEDED,
                "the GPU ran out of memory for the judge's buffers while the submission ran",
            ) from e

    def reference_module(self) -> Any:
        if self.ref is None:
            self.ref = loader.load_reference(self.g.problem)
        return self.ref

    def make_case(
        self, case: Case, timed: bool = False
    ) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        """Fresh inputs from a secret seed, the expected outputs, and the error scales.

        ``timed``: a timed call of a problem with ``reference_sample`` gets its expected outputs
        at secret sampled positions only (sampled.py), ``sampled.Sampled`` values."""
        import torch

        ref = self.reference_module()
        gen = torch.Generator(device=self.g.dev)
        gen.manual_seed(secrets.randbits(62))
        inputs = loader.call_generate(
            ref, self.g.problem, case.params, case.kind, gen, torch.device(self.g.dev)
        )
        if timed and sampled.available(ref):
            return inputs, sampled.make(ref, self.g.problem, inputs, case.params, gen), {}
        expected = ref.reference({k: v.clone() for k, v in inputs.items()}, dict(case.params))
        scale_fn = getattr(ref, "error_scale", None)
        scales = scale_fn(inputs, dict(case.params), expected) if scale_fn else {}
        return inputs, expected, scales

    def alloc(self, case: Case, key: str, keep: bool = False) -> dict[str, buffers.SharedBuffer]:
        problem, dev, workdir = self.g.problem, self.g.dev, self.g.workdir
        bufs = {}
        for a in problem.args:
            if a.is_tensor:
                shape = problem.shape(a, case.params)
                if keep:  # benchmark buffers: the same memory for every grading (buffers.kept)
                    name = f"{problem.slug}/{case.name}/{a.name}"
                    bufs[a.name] = buffers.kept(shape, a.dtype, dev, workdir, name)
                else:
                    bufs[a.name] = buffers.create(shape, a.dtype, dev, workdir, f"{key}_{a.name}")
        msg = self.ch.request(
            30.0, "binding", messages.Bind(op="bind", case=key, args=bind_args(problem, case, bufs))
        )
        self.ch.raise_if_error(msg)
        return bufs

    def release(self, key: str, bufs: dict[str, buffers.SharedBuffer], unbind: bool = True) -> None:
        """The runner unmaps a case's buffers before the referee frees them.

        After a failure the runner is about to be killed, so it is not asked (it may hang)."""
        runner = self.ch.runner
        if unbind and runner is not None and runner.proc.popen.poll() is None:
            try:
                runner.request(10.0, messages.Unbind(op="unbind", case=key))
            except Exception:  # a dead or hung runner: the buffers are freed all the same
                log.warning("runner did not unbind %s", key)
        for b in bufs.values():
            b.free()

    def fill(self, bufs: dict[str, buffers.SharedBuffer], inputs: dict[str, Any]) -> None:
        for a in self.g.problem.args:
            if a.role in ("input", "inout"):
                bufs[a.name].tensor.copy_(inputs[a.name])
            elif a.role == "output":
                dtypes.poison(bufs[a.name].tensor)  # NaN, or 0x7F bytes for integers
        self.pattern.fill(self.guarded(bufs))

    def guarded(self, bufs: dict[str, buffers.SharedBuffer]) -> list[guards.Guarded]:
        return [
            guards.Guarded(
                a.name,
                a.role,
                tuple(bufs[a.name].tensor.shape),
                a.shape,
                bufs[a.name].tensor.element_size(),
                bufs[a.name].front,
                bufs[a.name].back,
            )
            for a in self.g.problem.args
            if a.is_tensor
        ]

    def check(
        self,
        bufs: dict[str, buffers.SharedBuffer],
        expected: dict[str, Any],
        scales: dict[str, Any],
    ) -> tuple[bool, str, float]:
        """(passed, message, worst error): the guards first (a write out of bounds says where),
        then every output against its expected value."""
        problem = self.g.problem
        wrote = self.pattern.check(self.guarded(bufs))  # guards.py
        if wrote:
            return False, wrote, 0.0
        got = {a.name: bufs[a.name].tensor for a in problem.outputs}
        worst = 0.0
        for name, exp in list(expected.items()):
            if isinstance(exp, sampled.Sampled):
                ok, message, err = sampled.compare(name, got.pop(name), exp, problem.check)
                worst = max(worst, err)
                if not ok:
                    return False, message, err
        if not got:
            return True, "", worst
        ok, message, err = outputs.check_outputs(problem, got, expected, scales)  # checkers/
        return ok, message, max(worst, err)

    def call(
        self, key: str, new_shapes: bool = False, tune: str = autotune.TUNE_FIRST
    ) -> messages.Received:
        """An untimed call (a test case; the first call of a benchmark case)."""
        lim = self.g.problem.limits
        # A Triton kernel compiles (and an autotuned one tunes; under the interpreter, is checked
        # against the GPU's limits) during its first call at new shapes: the host part of the
        # call (until "launched") may take the compile limit; the device part only the call limit.
        jit = (self.first_call or new_shapes) and self.g.lang.jit
        compile_s = lim.compile_s
        if self.g.dev == "cpu" and not self.g.lang.jit_on_cpu:  # only the checks for sm_90 there
            from judge.sandbox.interpreter import CALL_BUDGET_S

            compile_s = min(compile_s, CALL_BUDGET_S)
        host_limit = lim.call_s + (compile_s if jit else 0.0)
        t0 = time.monotonic()
        try:
            msg = self.ch.request(
                self.g.left(host_limit),
                "running",
                messages.Call(op="call", case=key, timed=False, tune=tune),
            )
        except Stop as e:
            if not (jit and e.verdict == Verdict.TIME_LIMIT_EXCEEDED):
                raise
            raise Stop(
                e.verdict,
                f"the first call at new sizes did not return within the compile limit "
                f"({compile_s:.0f} s) plus the call limit ({lim.call_s:.0f} s): compiling "
                "(Triton's JIT, torch.compile) and autotuning count against the compile limit, "
                f"the kernel's own run against the call limit{cpuwait.note(self.ch.waited_s)}",
            ) from e
        if self.first_call:  # mostly the JIT compile of a Triton kernel
            self.g.phase("first_launch", t0)
        if msg.get("op") == "launched":
            msg = self.ch.recv(self.g.left(lim.call_s), "running")
        self.first_call = False
        done = self.ch.done(msg)
        # The interpreter's notes on the call (interpreter.py); untrusted, so checked by add_warning.
        warnings = done.get("warnings")
        for w in warnings if isinstance(warnings, list) else []:
            self.g.result.add_warning(w)
        self.findings.add(done.get("findings"), str((self.ch.activity or {}).get("name", key)))
        return done

    def sync(self) -> None:
        if self.g.dev == "cuda":
            import torch

            torch.cuda.synchronize()

    def run_tests(self) -> None:
        """Every test case the device can run, in order; wrong_answer if any failed."""
        g, problem = self.g, self.g.problem
        t0 = time.monotonic()
        cases = [c for c in problem.tests if g.dev == "cuda" or g.lang.runs_on_cpu_case(problem, c)]
        failed: list[str] = []
        for i, case in enumerate(cases, 1):
            self.ch.activity = {
                "stage": "testing",
                "index": i,
                "total": len(cases),
                "name": case.name,
            }
            g.progress(self.ch.activity)
            with g.timed("tests_make"), self.referee_memory():
                inputs, expected, scales = self.make_case(case)
            key = f"t{i}"
            with g.timed("tests_alloc"), self.referee_memory():
                bufs = self.alloc(case, key)
            try:
                self.fill(bufs, inputs)
                self.sync()
                done = self.call(key)
                self.ch.check_memory(f"after test {case.name!r}")
                with g.timed("tests_check"):
                    ok, message, err = self.check(bufs, expected, scales)
                    ratio = (
                        outputs.tolerance_ratio(
                            problem,
                            {a.name: bufs[a.name].tensor for a in problem.outputs},
                            expected,
                            scales,
                        )
                        if ok
                        else None
                    )
                if not ok and (said := _notes(done)):
                    message = f"{message}. NumPy warned while your kernel ran: {said}"
            except BaseException:
                self.release(key, bufs, unbind=False)
                raise
            with g.timed("tests_release"):
                self.release(key, bufs)
            g.result.cases.append(
                CaseResult(
                    case.name, ok, message, err, round(ratio, 4) if ratio is not None else None
                )
            )
            if not ok:
                failed.append(case.name)
                if not g.all_cases:
                    break
        self.ch.activity = None
        g.phase("tests", t0)
        if failed:
            first = next(c for c in g.result.cases if not c.passed)
            counted = (
                f"{len(failed)} of {len(cases)} cases failed"
                if g.all_cases
                else f"case {len(g.result.cases)} of {len(cases)} failed (the rest not run)"
            )
            raise Stop(Verdict.WRONG_ANSWER, f"{counted}; first: {first.name}: {first.message}")


def _notes(done: Any) -> str:
    """The runner's numeric notes for a call (numeric_notes.py), untrusted: strings, capped."""
    notes = done.get("notes") if isinstance(done, dict) else None
    if not isinstance(notes, list):
        return ""
    return "; ".join(n[:200] for n in notes[:3] if isinstance(n, str) and n.strip())


def bind_args(
    problem: Problem, case: Case, bufs: dict[str, buffers.SharedBuffer]
) -> list[messages.BindArg]:
    """The ``bind`` message's arguments: each integer's value, each tensor's buffer."""
    return [
        messages.BindArg(kind="int", value=case.params[a.name])
        if not a.is_tensor
        else messages.BindArg(kind="tensor", desc=bufs[a.name].descriptor())
        for a in problem.args
    ]
