"""The referee: grades one submission against one problem.

This process is trusted. It generates every input from a secret seed, keeps a private copy
of the inputs and the expected outputs, and hands the sandboxed runner only shared buffers
for the arguments. After each call it checks the outputs itself; for timed calls it also
freezes the runner between calls (no background work outside the timed window), checks that
the outputs do not change after the call returned (no deferred writes), and cross-checks the
runner's CUDA-event time with its own clock (no forged timer).
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from worker.grading import (
    autotune,
    baseline,
    buffers,
    checker,
    clock,
    device,
    dtypes,
    gate,
    gpumem,
    guards,
    languages,
    precompile,
    problems,
    sampled,
    sourcecache,
    timing,
    tritoncache,
)
from worker.grading.languages.runtime import Refused
from worker.grading.limits import MAX_SOURCE_BYTES
from worker.grading.profile.findings import Findings
from worker.grading.results import BenchResult, CaseResult, GradeResult
from worker.grading.runner_client import (
    RunnerClient,
    RunnerDied,
    RunnerPool,
    RunnerTimeout,
    default_limits,
    runner_env,
)
from worker.grading.schema import Case, Problem
from worker.grading.verdicts import Verdict

log = logging.getLogger(__name__)

RUNNER_START_S = 120.0
BENCH_BUDGET_S = 2.5
PING_COUNT = 12
SNAPSHOT_ONE_IN = 8
# No honest kernel beats the measured ceilings by 25% (a read-only kernel can exceed the
# read+write copy bandwidth by a few percent, not more).
SOL_GUARD = 0.8
# The referee's wall clock around one timed call (pipe, SIGCONT/SIGSTOP, the GPU's switch between
# two processes' contexts) ran 0.5-1.5 ms above its calibrated overhead on an H100, call after call:
# it resolves forgeries of milliseconds, not of microseconds. Below that, SOL_GUARD bounds a lie.
WALL_SLACK_MS = 2.0
# A case whose every wall disagrees with its GPU time is timed again after this pause.
WALL_RECHECK_PAUSE_S = 0.5
WALL_RECHECK_CALLS = 5
Progress = Callable[[dict[str, Any]], None]


class _Settling:
    """The clock waits of one benchmark case (clock.py): bounded by ``clock.CASE_WAIT_S``."""

    def __init__(self) -> None:
        self.waited_s = 0.0
        self.waits = 0
        self.slow = 0
        self.readings: list[float] = []

    def left(self) -> float:
        return max(0.0, clock.CASE_WAIT_S - self.waited_s)

    def add(self, s: clock.Settled) -> None:
        self.readings.append(s.ghz)
        self.waited_s += s.waited_s
        self.waits += s.waited_s > 0
        self.slow += not s.ok

    def summary(self) -> dict[str, Any]:
        return {
            # The referee's reading just before each timed call, its median.
            "sm_ghz_before_calls": round(statistics.median(self.readings), 4)
            if self.readings
            else None,
            "clock_waits": self.waits,
            "clock_wait_s": round(self.waited_s, 3),
            # Calls let go with the clock still low (the waits ran out): timed as they were.
            "slow_clock_calls": self.slow,
        }


class Stop(Exception):
    """Grading ends early with this verdict."""

    def __init__(self, verdict: Verdict, message: str) -> None:
        super().__init__(message)
        self.verdict = verdict
        self.message = message


def resolve_device(requested: str) -> str:
    if requested == "cpu":
        return "cpu"
    import torch

    if torch.cuda.is_available():
        return "cuda"
    if requested == "cuda":
        raise RuntimeError("--device cuda was asked for, but no CUDA GPU is available")
    return "cpu"


def grade(
    problem: Problem,
    source: str,
    language: str,
    *,
    device: str = "auto",
    mode: str = "submit",
    on_progress: Progress | None = None,
    pool: RunnerPool | None = None,
    static_policy: bool = True,
    report_dir: Path | None = None,
    sanitize: bool | None = None,
) -> GradeResult:
    """Grade ``source`` (Triton .py or CUDA .cu text). Never raises for a bad submission.

    With a ``pool`` (of the same device), the runner comes pre-started from it.
    ``static_policy=False`` skips policy.py's check (tests of the defences behind it).
    ``mode``: "submit" (tests, benchmarks), "run" (tests), "sanitize" (tests, then the failing
    or first case under a sanitizer), "profile" (one run under Nsight Compute, kept in
    ``report_dir``): profile/. ``sanitize=False`` (or ``KERNELDOJO_SANITIZE=0`` when not given):
    no sanitizer run after a failure, for checks of declared verdicts, where it only costs time."""
    dev = resolve_device(device)
    if mode == "profile":
        return _profile(problem, source, language, dev, on_progress, report_dir)
    if dev == "cuda":
        tritoncache.shared_dir()  # this process's Triton cache, before it compiles anything
    runner = pool.acquire() if pool is not None and pool.device == dev else None
    with tempfile.TemporaryDirectory(prefix="kerneldojo-") as tmp:
        workdir = runner.workdir if runner is not None else Path(tmp)
        session = _Session(
            problem, source, language, dev, mode, on_progress or (lambda e: None), workdir
        )
        session.runner = runner
        session.pool = pool
        session.static_policy = static_policy
        try:
            result = session.run()
            if sanitize is None:
                sanitize = os.environ.get("KERNELDOJO_SANITIZE", "1") != "0"
            if sanitize or mode == "sanitize":
                _sanitize(session, result)
            return result
        except Exception as e:  # a bug of ours: report it, never crash the worker
            log.exception("internal error grading %s", problem.slug)
            session.result.verdict = Verdict.INTERNAL_ERROR
            session.result.message = f"internal error: {type(e).__name__}: {e}"
            return session.result
        finally:
            if dev == "cuda":
                tritoncache.learn(workdir)  # launchers this runner built, for the next ones
                if session.source_key:  # its kernels, for the next grading of this source
                    with session._timed("source_cache_store"):
                        sourcecache.store(workdir, session.source_key)
            if pool is not None and session.runner is not None:
                # Killed and reaped in the background: the verdict need not wait for a process
                # with a CUDA context to exit. The pool waits for it before the next timing.
                pool.retire(session.runner)
                session.runner = None
            with session._timed("cleanup"):
                session.close()
            if runner is not None and pool is not None:
                pool.done()  # the spare runners may create their CUDA contexts now
            elif pool is not None:
                pool.warm()


def _profile(
    problem: Problem,
    source: str,
    language: str,
    dev: str,
    on_progress: Progress | None,
    report_dir: Path | None,
) -> GradeResult:
    """Profile mode (profile/profiler.py): a GPU worker only; never an internal error."""
    from worker.grading.profile import profiler, tools
    from worker.grading.profile.report import ProfileReport

    if dev != "cuda":
        why = tools.not_enabled_message(
            "profiling needs a GPU worker (Nsight Compute measures the GPU's counters)"
        )
        res = GradeResult(Verdict.NOT_RUN, problem.slug, language, "cpu-interpreter", why)
        res.profile = ProfileReport(enabled=False, message=why)
        return res
    progress = on_progress or (lambda e: None)
    try:
        return profiler.run(problem, source, language, progress, report_dir or tools.report_dir())
    except Exception as e:  # a bug of ours: the learner gets a message, the log the trace
        log.exception("internal error profiling %s", problem.slug)
        res = GradeResult(Verdict.NOT_RUN, problem.slug, language, "cuda")
        res.message = f"the profile failed on the judge's side: {type(e).__name__}: {e}"
        res.profile = ProfileReport(enabled=False, message=res.message)
        return res


def _sanitize(session: _Session, result: GradeResult) -> None:
    """A sanitizer's findings on a failing result, or on demand (profile/sanitize.py): the
    interpreter's on the CPU, compute-sanitizer's on a GPU. The verdict stays."""
    from worker.grading.profile import sanitize

    failed = result.verdict in sanitize.FAILURES
    if session.dev == "cpu":  # Triton's interpreter checks every access (profile/bounds.py)
        on_demand = session.mode == "sanitize" and session.language == "triton"
        if on_demand or (failed and session.findings.items):
            result.sanitizer = session.findings.report()
        return
    if not sanitize.wanted(result, session.mode, session.dev):
        return
    case = sanitize.failing_case(session.problem, result)
    if case is None:
        return
    try:
        result.sanitizer = sanitize.run(
            session.problem, session.source, session.language, case, session.progress
        )
    except Exception:  # the verdict is what matters: a sanitizer that fails only logs
        log.exception("sanitizer run failed for %s", session.problem.slug)
    session.progress({"stage": "done", "verdict": str(result.verdict)})


def _count(value: Any) -> int:
    """A small non-negative count from the runner, or 0."""
    return (
        value
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**6
        else 0
    )


class _Session:
    def __init__(
        self,
        problem: Problem,
        source: str,
        language: str,
        dev: str,
        mode: str,
        progress: Progress,
        workdir: Path,
    ) -> None:
        self.problem, self.source, self.language = problem, source, language
        self.dev, self.mode, self.progress, self.workdir = dev, mode, progress, workdir
        workdir.chmod(0o777)
        name = device.gpu_name() if dev == "cuda" else "cpu-interpreter"
        self.result = GradeResult(
            verdict=Verdict.ACCEPTED, problem=problem.slug, language=language, device=name or "cuda"
        )
        self.runner: RunnerClient | None = None
        self.lang: languages.Language = languages.default()  # _validate_source sets it
        self.ref: Any = None
        self.overhead_ms = 0.0
        self.gate: gate.RefereeGate | None = None
        self.gate_ms = 0.0  # the referee's bracket of an empty call (gate.py)
        self.meter: gpumem.Meter | None = None
        self.deadline = time.monotonic() + problem.limits.total_s
        self.first_call = True
        self.timed_calls = 0
        self.flusher: timing.L2Flusher | None = None
        self.clock: clock.ClockProbe | None = None
        self.pool: RunnerPool | None = None
        self.pattern = guards.Pattern(dev)
        self.static_policy = True
        self.source_key = ""  # sourcecache.key, for a Triton submission on a GPU
        self.activity: dict[str, Any] | None = None  # progress event that runner counts refine
        self.detail_at = 0.0
        self.findings = Findings()  # the CPU interpreter's out-of-bounds findings (profile/)

    # -- phases -----------------------------------------------------------------------------
    def run(self) -> GradeResult:
        try:
            self._validate_source()
            lib = self._compile()
            if self.dev == "cpu" and not self.lang.runs_on_cpu:
                raise Stop(
                    Verdict.NOT_RUN, f"compiled; no GPU on this worker to run {self.lang.label}"
                )
            self._start_runner()
            self._load(lib)
            self._precompile()
            self._tests()
            if self.mode == "submit" and self.dev == "cuda":
                if self.pool is not None:
                    # No runner of the pool may be creating a CUDA context while timing.
                    with self._timed("settle"):
                        self.pool.settle(RUNNER_START_S, warm=False)
                self._benchmarks()
            self.result.verdict = Verdict.ACCEPTED
        except Stop as s:
            self.result.verdict, self.result.message = s.verdict, s.message
        if self.runner is not None:
            self.result.stdout = self.runner.output()
        self.progress({"stage": "done", "verdict": str(self.result.verdict)})
        return self.result

    def _phase(self, name: str, t0: float) -> None:
        self.result.phases[name] = round(
            self.result.phases.get(name, 0.0) + time.monotonic() - t0, 4
        )

    @contextlib.contextmanager
    def _timed(self, name: str) -> Iterator[None]:
        """Adds the time of the block to phase ``name`` (a phase may be timed several times)."""
        t0 = time.monotonic()
        try:
            yield
        finally:
            self._phase(name, t0)

    def _validate_source(self) -> None:
        lang = languages.get(self.language)
        if lang is None:
            raise Stop(
                Verdict.COMPILE_ERROR,
                f"unknown language {self.language!r}: use one of {', '.join(languages.names())}",
            )
        self.lang = lang
        if not self.source.strip():
            raise Stop(Verdict.COMPILE_ERROR, "the submission is empty")
        if len(self.source.encode()) > MAX_SOURCE_BYTES:
            raise Stop(
                Verdict.COMPILE_ERROR, f"the submission is larger than {MAX_SOURCE_BYTES >> 10} KiB"
            )

    def _compile(self) -> str:
        """The language's ``prepare`` (languages/): the file the runner loads."""
        self.progress({"stage": "compiling"})
        try:
            prep = self.lang.prepare(
                self.source,
                self.workdir,
                self.problem,
                static_policy=self.static_policy,
                compile_s=self.problem.limits.compile_s,
            )
        except Refused as r:
            if r.compile is not None:
                self.result.compile = r.compile
            if r.compile_s is not None:
                self.result.phases["compile"] = round(r.compile_s, 4)
            raise Stop(Verdict(r.verdict), r.message) from r
        self.result.compile = prep.compile
        if prep.compile_s is not None:
            self.result.phases["compile"] = round(prep.compile_s, 4)
        return prep.path

    def _start_runner(self) -> None:
        t0 = time.monotonic()
        if self.runner is None:
            limits = default_limits(
                self.dev,
                self.problem.limits.host_memory_mb,
                int(self.problem.limits.total_s * 2) + 60,
            )
            self.runner = RunnerClient(self.workdir, self.dev, limits, runner_env(self.dev))
        try:
            self.runner.wait_ready(RUNNER_START_S)
        except (RunnerDied, RunnerTimeout) as e:
            raise Stop(Verdict.INTERNAL_ERROR, f"the runner did not start: {e}") from e
        self._phase("sandbox_start", t0)
        if self.runner.init_s is not None:  # done ahead of demand with a pool: not waited for
            self.result.phases["cuda_init"] = self.runner.init_s
        if self.dev == "cuda":
            with self._timed("calibrate"):
                self._calibrate()
            self.meter = gpumem.Meter(self.runner.proc.tree())
            if not self.meter.per_process and self.pool is not None:
                # the device-wide reading: no spare runner may be creating its context meanwhile
                self.pool.settle(RUNNER_START_S, warm=False)
                self.meter = gpumem.Meter(self.runner.proc.tree())

    def _calibrate(self) -> None:
        """The referee's overheads for one timed call, measured before any submission code
        exists (so a submission cannot inflate them), through the same steps as a timed call —
        referee GPU work, thaw, a gated call that records events and synchronizes, freeze —
        minus the kernel: the wall clock's, the gate's bracket (gate.py) and the host time to
        "launched". They include the GPU's switches between the referee's and the runner's
        contexts."""
        import torch

        assert self.runner is not None
        self.flusher = timing.L2Flusher.shared()
        self.clock = clock.ClockProbe.shared()
        self.gate = gate.RefereeGate.shared()
        self._raise_if_error(
            self._request(10.0, "calibrating", op="gate", desc=self.gate.descriptor())
        )
        walls, brackets, launches = [], [], []
        for _ in range(PING_COUNT):
            self.flusher.flush()
            torch.cuda.synchronize()
            t = time.perf_counter()
            _, bracket, launch = self._gated(5.0, "calibrating", op="ping")
            walls.append((time.perf_counter() - t) * 1e3)
            self.runner.freeze()
            if bracket is not None:
                brackets.append(bracket)
                launches.append(launch)
        self.runner.thaw()
        if len(brackets) < PING_COUNT // 2:
            raise Stop(Verdict.INTERNAL_ERROR, "the GPU gate did not close on calibration calls")
        self.overhead_ms = statistics.median(walls)
        self.gate_ms = statistics.median(brackets)
        self.result.phases["gate_launch_ms"] = round(statistics.median(launches), 4)
        self.result.phases["clock_overhead_ms"] = round(self.overhead_ms, 4)
        self.result.phases["gate_overhead_us"] = round(self.gate_ms * 1e3, 1)

    def _gated(
        self, timeout_s: float, what: str, probe: Callable[[], Any] | None = None, **msg: Any
    ) -> tuple[dict[str, Any], float | None, float]:
        """One call through the gate (gate.py), the runner thawed once it is sent: (the runner's
        last reply, the referee's bracket in ms or None if the runner never closed the gate, the
        host ms from the thaw to "launched"). ``probe`` runs on the gate's stream right after
        its end event: it sees the outputs as they were when the referee's clock stopped."""
        assert self.runner is not None and self.gate is not None
        g = self.gate.next_call()
        t = time.perf_counter()
        try:
            reply = self._request(timeout_s, what, thaw_last=True, gate=g, **msg)
            launch = (time.perf_counter() - t) * 1e3
            if reply.get("op") != "launched":
                return reply, None, launch
            self.gate.launched(probe)
            reply = self._recv(timeout_s, what)
            return reply, self.gate.finish(timeout_s), launch
        finally:
            self.gate.finish(0.0)  # never leave the gate's stream waiting for the runner

    def _load(self, lib: str) -> None:
        t0 = time.monotonic()
        argtypes = ["ptr" if a.is_tensor else "int" for a in self.problem.args]
        msg = self._request(
            self.problem.limits.compile_s,
            "loading",
            op="load",
            language=self.language,
            path=lib,
            argtypes=argtypes,
            roles=[a.role for a in self.problem.args],
            forbid_library=self.lang.library_rule(self.problem),
            gpu_budget_mb=self.problem.gpu_budget_mb(),
            source_cache=self._source_cache(),
        )
        self._phase("load", t0)
        self._raise_if_error(msg)
        self._check_memory("once loaded")

    def _source_cache(self) -> str | None:
        """The folder of this source's compiled kernels, if an earlier grading left one."""
        if not self.lang.precompiles or self.dev != "cuda":
            return None
        self.source_key = sourcecache.key(self.problem.slug, self.source, self.result.device)
        hit = sourcecache.folder(self.source_key) is not None
        self.result.phases["source_cache_hit"] = int(hit)
        return self.source_key if hit else None

    def _precompile(self) -> None:
        """A Triton submission compiles the kernels of every case at once, in parallel, before
        its first test (precompile.py); under the compile limit. Only speed: a failure here is
        not a verdict (the real calls compile what is missing and fail as they would)."""
        if not self.lang.precompiles or self.dev != "cuda":
            return
        bench = self.problem.benchmarks if self.mode == "submit" else []
        p = self.problem
        cases = [precompile.placeholder(p, c, autotune.TUNE_FIRST) for c in p.tests]
        cases += [precompile.placeholder(p, c, autotune.TUNE_FULL) for c in bench]
        self.progress({"stage": "compiling"})
        self.activity = {"stage": "compiling"}
        t0 = time.monotonic()
        try:
            msg = self._request(
                self.problem.limits.compile_s, "compiling", op="precompile", cases=cases
            )
        finally:
            self.activity = None
            self._phase("precompile", t0)
        log.info("precompiled: %s", str(msg)[:400])
        if msg.get("op") == "precompiled":
            for k in ("kernels", "failed", "cases_cut_short", "host_ms", "wait_ms", "threads"):
                self.result.phases[f"precompile_{k}"] = _count(msg.get(k))
        else:
            log.info("precompile answered %s", str(msg)[:200])

    # -- running cases ----------------------------------------------------------------------
    def _check_memory(self, when: str) -> None:
        """memory_limit_exceeded if the runner holds more GPU memory than the budget (gpumem.py)."""
        if self.meter is None or self.runner is None:
            return
        extra = self.meter.extra_bytes(self.runner.proc.tree()) >> 20
        budget = self.problem.gpu_budget_mb()
        if extra > budget:
            raise Stop(
                Verdict.MEMORY_LIMIT_EXCEEDED,
                f"the submission held {extra} MiB of GPU memory {when}; this problem allows "
                f"{budget} MiB of scratch beyond the judge's buffers (free what you allocate, or "
                "allocate less)",
            )

    @contextlib.contextmanager
    def _referee_memory(self) -> Iterator[None]:
        """The referee's own GPU allocations: when the device is out of memory, the runner took it."""
        import torch

        try:
            yield
        except (torch.OutOfMemoryError, buffers.CudaError) as e:
            if isinstance(e, buffers.CudaError) and e.code != buffers.CUDA_ERROR_OUT_OF_MEMORY:
                raise
            self._check_memory("when the judge could not allocate its buffers")
            raise Stop(
                Verdict.MEMORY_LIMIT_EXCEEDED,
                "the GPU ran out of memory for the judge's buffers while the submission ran",
            ) from e

    def _reference_module(self) -> Any:
        if self.ref is None:
            self.ref = problems.load_reference(self.problem)
        return self.ref

    def _make_case(
        self, case: Case, timed: bool = False
    ) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        """Fresh inputs from a secret seed, the expected outputs, and the error scales.

        ``timed``: a timed call of a problem with ``reference_sample`` gets its expected outputs
        at secret sampled positions only (sampled.py), ``sampled.Sampled`` values."""
        import torch

        ref = self._reference_module()
        gen = torch.Generator(device=self.dev)
        gen.manual_seed(secrets.randbits(62))
        inputs = problems.call_generate(
            ref, self.problem, case.params, case.kind, gen, torch.device(self.dev)
        )
        if timed and sampled.available(ref):
            return inputs, sampled.make(ref, self.problem, inputs, case.params, gen), {}
        expected = ref.reference({k: v.clone() for k, v in inputs.items()}, dict(case.params))
        scale_fn = getattr(ref, "error_scale", None)
        scales = scale_fn(inputs, dict(case.params), expected) if scale_fn else {}
        return inputs, expected, scales

    def _alloc(self, case: Case, key: str, keep: bool = False) -> dict[str, buffers.SharedBuffer]:
        bufs = {}
        for a in self.problem.args:
            if a.is_tensor:
                shape = self.problem.shape(a, case.params)
                if keep:  # benchmark buffers: the same memory for every grading (buffers.kept)
                    name = f"{self.problem.slug}/{case.name}/{a.name}"
                    bufs[a.name] = buffers.kept(shape, a.dtype, self.dev, self.workdir, name)
                else:
                    bufs[a.name] = buffers.create(
                        shape, a.dtype, self.dev, self.workdir, f"{key}_{a.name}"
                    )
        args = [
            {"kind": "int", "value": case.params[a.name]}
            if not a.is_tensor
            else {"kind": "tensor", "desc": bufs[a.name].descriptor()}
            for a in self.problem.args
        ]
        msg = self._request(30.0, "binding", op="bind", case=key, args=args)
        self._raise_if_error(msg)
        return bufs

    def _release(
        self, key: str, bufs: dict[str, buffers.SharedBuffer], unbind: bool = True
    ) -> None:
        """The runner unmaps a case's buffers before the referee frees them.

        After a failure the runner is about to be killed, so it is not asked (it may hang)."""
        runner = self.runner
        if unbind and runner is not None and runner.proc.popen.poll() is None:
            try:
                runner.request(10.0, op="unbind", case=key)
            except Exception:  # a dead or hung runner: the buffers are freed all the same
                log.warning("runner did not unbind %s", key)
        for b in bufs.values():
            b.free()

    def _fill(self, bufs: dict[str, buffers.SharedBuffer], inputs: dict[str, Any]) -> None:
        for a in self.problem.args:
            if a.role in ("input", "inout"):
                bufs[a.name].tensor.copy_(inputs[a.name])
            elif a.role == "output":
                dtypes.poison(bufs[a.name].tensor)  # NaN, or 0x7F bytes for integers
        self.pattern.fill(self._guarded(bufs))

    def _guarded(self, bufs: dict[str, buffers.SharedBuffer]) -> list[guards.Guarded]:
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
            for a in self.problem.args
            if a.is_tensor
        ]

    def _check(
        self,
        bufs: dict[str, buffers.SharedBuffer],
        expected: dict[str, Any],
        scales: dict[str, Any],
    ) -> tuple[bool, str, float]:
        """(passed, message, worst error): the guards first (a write out of bounds says where),
        then every output against its expected value."""
        wrote = self.pattern.check(self._guarded(bufs))  # guards.py
        if wrote:
            return False, wrote, 0.0
        got = {a.name: bufs[a.name].tensor for a in self.problem.outputs}
        worst = 0.0
        for name, exp in list(expected.items()):
            if isinstance(exp, sampled.Sampled):
                ok, message, err = sampled.compare(name, got.pop(name), exp, self.problem.check)
                worst = max(worst, err)
                if not ok:
                    return False, message, err
        if not got:
            return True, "", worst
        ok, message, err = checker.check_outputs(self.problem, got, expected, scales)  # checkers/
        return ok, message, max(worst, err)

    def _call(
        self, key: str, new_shapes: bool = False, tune: str = autotune.TUNE_FIRST
    ) -> dict[str, Any]:
        """An untimed call (a test case; the first call of a benchmark case)."""
        lim = self.problem.limits
        # A Triton kernel compiles (and an autotuned one tunes; under the interpreter, is checked
        # against the GPU's limits) during its first call at new shapes: the host part of the
        # call (until "launched") may take the compile limit; the device part only the call limit.
        jit = (self.first_call or new_shapes) and self.lang.jit
        compile_s = lim.compile_s
        if self.dev == "cpu" and not self.lang.jit_on_cpu:  # only the checks for sm_90 there
            from worker.grading.interpreter import CALL_BUDGET_S

            compile_s = min(compile_s, CALL_BUDGET_S)
        host_limit = lim.call_s + (compile_s if jit else 0.0)
        t0 = time.monotonic()
        try:
            msg = self._request(
                self._left(host_limit), "running", op="call", case=key, timed=False, tune=tune
            )
        except Stop as e:
            if not (jit and e.verdict == Verdict.TIME_LIMIT_EXCEEDED):
                raise
            raise Stop(
                e.verdict,
                f"the first call at new sizes did not return within the compile limit "
                f"({compile_s:.0f} s) plus the call limit ({lim.call_s:.0f} s): compiling "
                "(Triton's JIT, torch.compile) and autotuning count against the compile limit, "
                "the kernel's own run against the call limit",
            ) from e
        if self.first_call:  # mostly the JIT compile of a Triton kernel
            self._phase("first_launch", t0)
        if msg.get("op") == "launched":
            msg = self._recv(self._left(lim.call_s), "running")
        self.first_call = False
        done = self._done(msg)
        # The interpreter's notes on the call (interpreter.py); untrusted, so checked by add_warning.
        warnings = done.get("warnings")
        for w in warnings if isinstance(warnings, list) else []:
            self.result.add_warning(w)
        self.findings.add(done.get("findings"), str((self.activity or {}).get("name", key)))
        return done

    def _done(self, msg: dict[str, Any]) -> dict[str, Any]:
        """The runner's final reply to a call, which must be "done"."""
        self._raise_if_error(msg)
        if msg.get("op") != "done":
            # Only the submission can put the runner's protocol out of step (its process writes
            # on the control pipe): that is tampering with the harness, not a judge failure.
            raise Stop(
                Verdict.REJECTED,
                "the runner's replies were out of order: the submission interfered with the harness",
            )
        return msg

    def _left(self, limit: float) -> float:
        return min(limit, max(1.0, self.deadline - time.monotonic()))

    def _tests(self) -> None:
        t0 = time.monotonic()
        cases = [
            c
            for c in self.problem.tests
            if self.dev == "cuda" or self.lang.runs_on_cpu_case(self.problem, c)
        ]
        failed: list[str] = []
        for i, case in enumerate(cases, 1):
            self.activity = {"stage": "testing", "index": i, "total": len(cases), "name": case.name}
            self.progress(self.activity)
            with self._timed("tests_make"), self._referee_memory():
                inputs, expected, scales = self._make_case(case)
            key = f"t{i}"
            with self._timed("tests_alloc"), self._referee_memory():
                bufs = self._alloc(case, key)
            try:
                self._fill(bufs, inputs)
                self._sync()
                self._call(key)
                self._check_memory(f"after test {case.name!r}")
                with self._timed("tests_check"):
                    ok, message, err = self._check(bufs, expected, scales)
                    ratio = (
                        checker.tolerance_ratio(
                            self.problem,
                            {a.name: bufs[a.name].tensor for a in self.problem.outputs},
                            expected,
                            scales,
                        )
                        if ok
                        else None
                    )
            except BaseException:
                self._release(key, bufs, unbind=False)
                raise
            with self._timed("tests_release"):
                self._release(key, bufs)
            self.result.cases.append(
                CaseResult(
                    case.name, ok, message, err, round(ratio, 4) if ratio is not None else None
                )
            )
            if not ok:
                failed.append(case.name)
        self.activity = None
        self._phase("tests", t0)
        if failed:
            first = next(c for c in self.result.cases if not c.passed)
            raise Stop(
                Verdict.WRONG_ANSWER,
                f"{len(failed)} of {len(cases)} cases failed; first: {first.name}: {first.message}",
            )

    def _sync(self) -> None:
        if self.dev == "cuda":
            import torch

            torch.cuda.synchronize()

    def _benchmarks(self) -> None:
        import torch

        t0 = time.monotonic()
        flusher = self.flusher or timing.L2Flusher.shared()
        cases = self.problem.benchmarks
        for i, case in enumerate(cases, 1):
            self.activity = {
                "stage": "benchmarking",
                "index": i,
                "total": len(cases),
                "name": case.name,
            }
            self.progress(self.activity)
            key = f"b{i}"
            with self._referee_memory():
                bufs = self._alloc(case, key, keep=True)
            try:
                res = self._bench_case(case, key, bufs, flusher)
                self._check_memory(f"in benchmark {case.name!r}")
                if res.clocks.get("throttled"):  # measured under throttling: measure once more
                    log.warning("throttled during %s; re-measuring", case.name)
                    res = self._bench_case(case, key, bufs, flusher)
            except BaseException:
                self._release(key, bufs, unbind=False)
                raise
            self._release(key, bufs)
            torch.cuda.empty_cache()
            self.result.benchmark.append(res)
        self.activity = None
        self._phase("benchmark", t0)

    def _timed_call(
        self,
        key: str,
        bufs: dict[str, buffers.SharedBuffer],
        case: Case,
        flusher: timing.L2Flusher | None,
        settle: _Settling | None = None,
    ) -> tuple[tuple[float, float], float, float | None, float]:
        """One checked call: (the runner's ends (``_ends``), referee's wall ms, the SM clock
        across the call as the runner read it, the referee's floor: its gate bracket less the
        calibrated one of an empty call).

        With ``settle``, the referee's own GPU work for the call done, the call waits for the
        GPU's clock (clock.py) before it is let go."""
        import torch

        inputs, expected, scales = self._make_case(case, timed=True)
        self._fill(bufs, inputs)
        if flusher is not None:
            flusher.flush()
        torch.cuda.synchronize()
        if settle is not None and self.clock is not None:
            settle.add(self.clock.settle(min(clock.MAX_WAIT_S, settle.left())))
        assert self.runner is not None
        # The clock starts while the runner is still frozen and the call is already in its pipe:
        # nothing the submission does after the thaw escapes the referee's wall clock.
        gated = self._probe_positions(bufs, expected)
        at_end: list[Any] = []
        t = time.perf_counter()
        msg, bracket, launch = self._gated(
            self._left(self.problem.limits.call_s),
            "running",
            probe=lambda: at_end.extend(o[i] for o, i, _ in gated),
            op="call",
            case=key,
            timed=True,
        )
        wall = (time.perf_counter() - t) * 1e3
        self.runner.freeze()
        self._done(msg)
        if bracket is None:
            raise Stop(
                Verdict.REJECTED,
                f"benchmark {case.name}: the call never signalled its end on the GPU "
                "(the harness was interfered with)",
            )
        # At once, before anything else: outputs at secret positions. A "done" sent before the
        # work finished (a forged message, work left on another stream) shows as poison here;
        # so do outputs read on the referee's own stream the moment its clock stopped.
        probes = self._probe(bufs, expected)
        probes += [v[finite] for v, (_, _, finite) in zip(at_end, gated, strict=True)]
        snapshot = {a.name: bufs[a.name].tensor.clone() for a in self.problem.outputs}
        ok, message, _ = self._check(bufs, expected, scales)
        if not ok:
            raise Stop(
                Verdict.WRONG_ANSWER,
                f"benchmark {case.name}: a timed run gave a wrong result: {message}",
            )
        if any(bool(dtypes.unwritten(p).any()) for p in probes):
            raise Stop(
                Verdict.REJECTED,
                f"benchmark {case.name}: outputs were still unwritten when solve reported "
                "completion (work finished outside the timed call)",
            )
        self.timed_calls += 1
        log.debug("SM GHz across the call, least and most of the SMs: %s", msg.get("sm_ghz_range"))
        ghz = msg.get("sm_ghz")
        in_call = float(ghz) if isinstance(ghz, float) and 0.1 < ghz < 10 else None
        floor = bracket - self.gate_ms
        log.debug("gate: bracket %.4f ms, launch %.4f ms", bracket, launch)
        if self.timed_calls > 3 and secrets.randbelow(SNAPSHOT_ONE_IN) != 0:
            return self._ends(msg), wall, in_call, floor
        # The runner is frozen: outputs that still change now are written by GPU work it left
        # running. Waiting costs twice the call, so after the first calls it is done on a secret
        # random one in SNAPSHOT_ONE_IN: work left running on every call is caught all the same.
        torch.cuda.synchronize()
        time.sleep(max(0.001, 2 * wall / 1e3))
        for a in self.problem.outputs:
            # Bit for bit: an output may rightly keep NaN poison where nothing is to be written
            # (stream compaction's tail past count), and NaN never equals itself.
            if not torch.equal(
                snapshot[a.name].view(torch.uint8), bufs[a.name].tensor.view(torch.uint8)
            ):
                raise Stop(
                    Verdict.REJECTED,
                    f"benchmark {case.name}: outputs kept changing after solve "
                    "returned (work left running outside the timed call)",
                )
        return self._ends(msg), wall, in_call, floor

    @staticmethod
    def _ends(msg: dict[str, Any]) -> tuple[float, float]:
        """The runner's two end times of a timed call (runner.Runner.call), validated."""
        ms, ms_sync = msg.get("ms"), msg.get("ms_sync")
        for v in (ms, ms_sync):
            if not isinstance(v, float | int) or v != v or v < 0:
                raise Stop(Verdict.REJECTED, "the runner reported no valid time for a timed call")
        assert isinstance(ms, float | int) and isinstance(ms_sync, float | int)
        if ms_sync < ms:
            raise Stop(
                Verdict.REJECTED,
                "the runner reported a call that ended before its own work: the timer was "
                "tampered with",
            )
        return float(ms), float(ms_sync)

    def _probe_positions(
        self, bufs: dict[str, buffers.SharedBuffer], expected: dict[str, Any]
    ) -> list[tuple[Any, Any, Any]]:
        """(flat output, secret positions, where an unwritten value would show) for each output
        but in-place ones (never poisoned): read on the gate's stream when the referee's clock
        stops (``_gated``)."""
        import torch

        out = []
        for a in self.problem.outputs:
            if a.role == "inout":
                continue
            flat = bufs[a.name].tensor.view(-1)
            exp = expected[a.name]
            if isinstance(exp, sampled.Sampled):
                idx, finite = sampled.probe_positions(flat, exp, 64)
                out.append((flat, idx, finite))
                continue
            idx = torch.randint(0, flat.numel(), (64,), device=flat.device)
            shows = dtypes.checkable(exp.reshape(-1).to(flat.device)[idx], a.dtype)
            out.append((flat, idx, shows))
        return out

    def _probe(self, bufs: dict[str, buffers.SharedBuffer], expected: dict[str, Any]) -> list[Any]:
        """Copies of a few outputs at random positions where an unwritten value would show."""
        return [out[idx][finite] for out, idx, finite in self._probe_positions(bufs, expected)]

    def _wall_again(
        self, key: str, bufs: dict[str, buffers.SharedBuffer], case: Case, flusher: timing.L2Flusher
    ) -> float:
        """The referee's wall time of the case once more, after a pause: the least of
        ``WALL_RECHECK_CALLS`` calls, less the calibrated overhead (a stall only adds time)."""
        self.result.phases["wall_rechecks"] = self.result.phases.get("wall_rechecks", 0) + 1
        time.sleep(WALL_RECHECK_PAUSE_S)
        walls = [self._timed_call(key, bufs, case, flusher)[1] for _ in range(WALL_RECHECK_CALLS)]
        log.warning("%s: wall re-check %s ms", case.name, [round(w, 3) for w in walls])
        return min(walls) - self.overhead_ms

    def _bench_case(
        self, case: Case, key: str, bufs: dict[str, buffers.SharedBuffer], flusher: timing.L2Flusher
    ) -> BenchResult:
        # Warm-up on other inputs. The first call is untimed and gets the compile limit: JIT and
        # autotuning at this case's shapes (an autotuner synchronizes inside solve).
        inputs, expected, scales = self._make_case(case)
        self._fill(bufs, inputs)
        self._sync()
        self._call(key, new_shapes=True, tune=autotune.TUNE_FULL)
        ok, message, _ = self._check(bufs, expected, scales)
        if not ok:
            raise Stop(Verdict.WRONG_ANSWER, f"benchmark {case.name}: {message}")
        for _ in range(2):  # then timed ones: caches, clocks
            self._timed_call(key, bufs, case, None)
        with self._timed("clocks"):
            clocks_before = device.clocks()
        ends: list[tuple[float, float]] = []
        walls: list[float] = []
        floors: list[float] = []
        in_call: list[float] = []
        settling = _Settling()
        start = time.monotonic()
        while len(ends) < timing.MAX_RUNS:
            pair, wall, ghz, floor = self._timed_call(key, bufs, case, flusher, settling)
            log.debug(
                "%s: timed call %d: %.4f / %.4f ms, floor %.4f, SM %s GHz in the call, %s before",
                case.name,
                len(ends),
                *pair,
                floor,
                ghz,
                settling.readings[-1] if settling.readings else None,
            )
            ends.append(pair)
            walls.append(wall)
            floors.append(floor)
            if ghz is not None:
                in_call.append(ghz)
            # Stop on the times reported (timing.referee_floor). Time spent waiting for the clock
            # is not taken from the case's budget.
            times, floor_calls = timing.referee_floor([e[0] for e in ends], floors)
            if timing.converged(times) or (
                len(ends) >= 3 and time.monotonic() - start - settling.waited_s > BENCH_BUDGET_S
            ):
                break
        with self._timed("clocks"):
            clocks_after = device.clocks()
        st = timing.stats(times)
        wall_med = statistics.median(walls)
        # The runner's clock runs in untrusted code: the referee's own clock must agree with it.
        # Only a gross disagreement is called forgery (see WALL_SLACK_MS); the speed-of-light
        # bound below catches a forged time that is merely too good.
        referee_ms = min(walls) - self.overhead_ms
        if st.median < 0.5 * referee_ms - WALL_SLACK_MS:
            # Every call of the case stalled on the host: either the submission works outside
            # what the GPU bracket sees (host compute before its launch), call after call, or a
            # passing stall of the host or the driver held every call of the round (an honest
            # transpose on an H100: 0.18 ms on the GPU, a 5.6 ms wall for a whole round,
            # 2026-11-25e). A second round tells them apart: a forgery repeats.
            referee_ms = self._wall_again(key, bufs, case, flusher)
            if st.median < 0.5 * referee_ms - WALL_SLACK_MS:
                raise Stop(
                    Verdict.REJECTED,
                    f"benchmark {case.name}: reported {st.median:.4f} ms, but the "
                    f"referee measured {referee_ms:.4f} ms: the timer was tampered with",
                )
        flops, nbytes = self.problem.roofline.counts(case.params)
        bw = timing.ceiling("copy")
        peak = timing.ceiling(self.problem.roofline.compute) if flops else 0.0
        t_mem = nbytes / bw * 1e3
        t_cmp = flops / peak * 1e3 if peak else 0.0
        sol_ms = max(t_mem, t_cmp)
        if st.median < SOL_GUARD * sol_ms:
            raise Stop(
                Verdict.REJECTED,
                f"benchmark {case.name}: reported {st.median:.4f} ms, faster than this GPU's measured "
                f"speed of light ({sol_ms:.4f} ms): the time cannot be true (work launched on a "
                "stream that solve's stream does not wait for runs before the timer starts)",
            )
        with self._timed("baseline"):  # measured once per GPU and case, then read from the cache
            baseline_ms = baseline.cached(self.problem, case)
        clocks = {
            "before": clocks_before,
            "after": clocks_after,
            "throttled": bool(clocks_before.get("throttled") or clocks_after.get("throttled")),
            **settling.summary(),
            # What the runner read across its calls (hold.py): the kernel's own clock under its
            # load, for the learner; untrusted, so nothing is decided on it.
            "sm_ghz_in_calls": round(statistics.median(in_call), 4) if in_call else None,
        }
        return BenchResult(
            name=case.name,
            median_ms=round(st.median, 5),
            runs=st.runs,
            iqr_ms=round(st.iqr, 5),
            rse_pct=round(st.rse * 100, 3),
            min_ms=round(st.min, 5),
            max_ms=round(st.max, 5),
            gbps=round(nbytes / (st.median / 1e3) / 1e9, 2),
            tflops=round(flops / (st.median / 1e3) / 1e12, 3),
            sol_ms=round(sol_ms, 5),
            sol_pct=round(100 * sol_ms / st.median, 1),
            bound="memory" if t_mem >= t_cmp else "compute",
            wall_median_ms=round(wall_med, 4),
            referee_calls=floor_calls,
            referee_gap_us=round(
                statistics.median(f - e[0] for f, e in zip(floors, ends, strict=True)) * 1e3, 1
            ),
            baseline_ms=baseline_ms,
            clocks=clocks,
        )

    # -- plumbing ---------------------------------------------------------------------------
    def _request(
        self, timeout_s: float, what: str, thaw_last: bool = False, **msg: Any
    ) -> dict[str, Any]:
        assert self.runner is not None
        try:
            self.runner.send(thaw_last=thaw_last, **msg)
        except RunnerDied as e:
            raise Stop(Verdict.RUNTIME_ERROR, f"while {what}: {e.message}") from e
        return self._recv(timeout_s, what)

    def _recv(self, timeout_s: float, what: str) -> dict[str, Any]:
        assert self.runner is not None
        end = time.monotonic() + timeout_s
        try:
            while True:
                msg = self.runner.recv(max(0.0, end - time.monotonic()))
                if msg.get("op") != "progress":
                    return msg
                self._runner_progress(msg)
        except RunnerTimeout as e:
            if what == "compiling":
                raise Stop(
                    Verdict.TIME_LIMIT_EXCEEDED,
                    f"compiling the kernels took longer than the compile limit "
                    f"({self.problem.limits.compile_s:.0f} s)",
                ) from e
            verdict = (
                Verdict.TIME_LIMIT_EXCEEDED
                if what in ("running", "loading")
                else Verdict.INTERNAL_ERROR
            )
            if what == "running" and time.monotonic() >= self.deadline:
                raise Stop(
                    verdict,
                    f"the whole grading took longer than {self.problem.limits.total_s:.0f} s",
                ) from e
            raise Stop(verdict, f"no answer after {timeout_s:.1f} s while {what}") from e
        except RunnerDied as e:
            verdict = Verdict.RUNTIME_ERROR
            if "SIGXCPU" in e.message or (
                "SIGKILL" in e.message and time.monotonic() >= self.deadline
            ):
                verdict = Verdict.TIME_LIMIT_EXCEEDED
            if what == "starting":
                verdict = Verdict.INTERNAL_ERROR
            raise Stop(verdict, f"while {what}: {e.message}") from e

    def _runner_progress(self, msg: dict[str, Any]) -> None:
        """ "compiling kernel i of n" or "tuning config i of n" from the runner: untrusted, so
        only two small counts are taken from it, and only while something is under way."""
        if self.activity is None:
            return
        done, total = _count(msg.get("done")), _count(msg.get("total"))
        word = "tuning config" if msg.get("kind") == "tune" else "compiling kernel"
        now = time.monotonic()
        # At most two a second (each is a database write in the worker), and the last one.
        if 0 < done <= total and (done == total or now - self.detail_at >= 0.5):
            self.detail_at = now
            self.progress({**self.activity, "detail": f"{word} {done} of {total}"})

    def _raise_if_error(self, msg: dict[str, Any]) -> None:
        if msg.get("op") == "error":
            try:
                verdict = Verdict(msg.get("verdict", "runtime_error"))
            except ValueError:
                verdict = Verdict.RUNTIME_ERROR
            if verdict == Verdict.ACCEPTED:  # the runner cannot grant a verdict
                verdict = Verdict.RUNTIME_ERROR
            raise Stop(verdict, str(msg.get("message", ""))[:8000])

    def close(self) -> None:
        if self.runner is not None:
            self.runner.close()
