"""The referee: grades one submission against one problem.

This process is trusted. It generates every input from a secret seed, keeps a private copy
of the inputs and the expected outputs, and hands the sandboxed runner only shared buffers
for the arguments. After each call it checks the outputs itself; for timed calls it also
freezes the runner between calls (no background work outside the timed window), checks that
the outputs do not change after the call returned (no deferred writes), and cross-checks the
runner's CUDA-event time with its own clock (no forged timer).

This module orchestrates the phases; the parts share one ``session.Grading``: the runner
conversation (channel.py, messages.py), the test cases (cases.py), the referee's overheads
(calibration.py) and the benchmark timing (bench.py).
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
import time
from pathlib import Path

from judge import languages
from judge.build import autotune, precompile, sourcecache, tritoncache
from judge.cases import Cases
from judge.languages.runtime import Refused
from judge.limits import MAX_SOURCE_BYTES
from judge.problem.schema import Problem
from judge.results import GradeResult
from judge.sandbox import gpumem, messages
from judge.sandbox.channel import Channel, count
from judge.sandbox.runner_client import (
    RunnerClient,
    RunnerDied,
    RunnerPool,
    RunnerTimeout,
    default_limits,
    runner_env,
)
from judge.session import Grading, Progress, Stop
from judge.timing import bench, calibration
from judge.verdicts import Verdict

__all__ = ["Progress", "Session", "Stop", "grade", "resolve_device"]

log = logging.getLogger(__name__)

RUNNER_START_S = 120.0


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
    all_cases: bool = True,
) -> GradeResult:
    """Grade ``source`` (Triton .py or CUDA .cu text). Never raises for a bad submission.

    With a ``pool`` (of the same device), the runner comes pre-started from it.
    ``static_policy=False`` skips policy.py's check (tests of the defences behind it).
    ``mode``: "submit" (tests, benchmarks), "run" (tests), "sanitize" (tests, then the failing
    or first case under a sanitizer), "profile" (one run under Nsight Compute, kept in
    ``report_dir``): profile/. ``sanitize=False`` (or ``KERNELDOJO_SANITIZE=0`` when not given):
    no sanitizer run after a failure, for checks of declared verdicts, where it only costs time.
    ``all_cases=False``: the tests stop at the first failing case, for the same checks."""
    dev = resolve_device(device)
    if mode == "profile":
        return _profile(problem, source, language, dev, on_progress, report_dir, pool)
    if dev == "cuda":
        tritoncache.shared_dir()  # this process's Triton cache, before it compiles anything
    # A language that does not run on the CPU is only compiled there: a pooled runner taken for
    # it would be retired unused, its imports (2-3 s of a CI core) wasted.
    lang = languages.get(language)
    runs = dev != "cpu" or lang is None or lang.runs_on_cpu
    runner = pool.acquire() if pool is not None and pool.device == dev and runs else None
    with tempfile.TemporaryDirectory(prefix="kerneldojo-") as tmp:
        workdir = runner.workdir if runner is not None else Path(tmp)
        session = Session(
            Grading(problem, source, language, dev, mode, on_progress or (lambda e: None), workdir)
        )
        session.channel.runner = runner
        session.pool = pool
        session.static_policy = static_policy
        session.g.all_cases = all_cases
        try:
            result = session.run()
            if sanitize is None:
                sanitize = os.environ.get("KERNELDOJO_SANITIZE", "1") != "0"
            if sanitize or mode == "sanitize":
                _sanitize(session, result)
            return result
        except Exception as e:  # a bug of ours: report it, never crash the worker
            log.exception("internal error grading %s", problem.slug)
            session.g.result.verdict = Verdict.INTERNAL_ERROR
            session.g.result.message = f"internal error: {type(e).__name__}: {e}"
            return session.g.result
        finally:
            if dev == "cuda":
                tritoncache.learn(workdir)  # launchers this runner built, for the next ones
                if session.source_key:  # its kernels, for the next grading of this source
                    with session.g.timed("source_cache_store"):
                        sourcecache.store(workdir, session.source_key)
            if pool is not None and session.channel.runner is not None:
                # Killed and reaped in the background: the verdict need not wait for a process
                # with a CUDA context to exit. The pool waits for it before the next timing.
                pool.retire(session.channel.runner)
                session.channel.runner = None
            with session.g.timed("cleanup"):
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
    pool: RunnerPool | None = None,
) -> GradeResult:
    """Profile mode (profile/profiler.py): a GPU worker only; never an internal error."""
    from judge.profile import profiler, tools
    from judge.profile.report import ProfileReport

    if dev != "cuda":
        why = tools.not_enabled_message(
            "profiling needs a GPU worker (Nsight Compute measures the GPU's counters)"
        )
        res = GradeResult(Verdict.NOT_RUN, problem.slug, language, "cpu-interpreter", why)
        res.profile = ProfileReport(enabled=False, message=why)
        return res
    progress = on_progress or (lambda e: None)
    try:
        # No spare of the pool starts its device while ncu replays the kernels (the profile's
        # figures are timings too).
        with pool.holding() if pool is not None else contextlib.nullcontext():
            return profiler.run(
                problem, source, language, progress, report_dir or tools.report_dir(), pool
            )
    except Exception as e:  # a bug of ours: the learner gets a message, the log the trace
        log.exception("internal error profiling %s", problem.slug)
        res = GradeResult(Verdict.NOT_RUN, problem.slug, language, "cuda")
        res.message = f"the profile failed on the judge's side: {type(e).__name__}: {e}"
        res.profile = ProfileReport(enabled=False, message=res.message)
        return res


def _sanitize(session: Session, result: GradeResult) -> None:
    """A sanitizer's findings on a failing result, or on demand (profile/sanitize.py): the
    interpreter's on the CPU, compute-sanitizer's on a GPU. The verdict stays."""
    from judge.profile import sanitize

    g = session.g
    failed = result.verdict in sanitize.FAILURES
    findings = session.cases.findings
    if g.dev == "cpu":  # Triton's interpreter checks every access (profile/bounds.py)
        on_demand = g.mode == "sanitize" and g.language == "triton"
        if on_demand or (failed and findings.items):
            result.sanitizer = findings.report()
        return
    if not sanitize.wanted(result, g.mode, g.dev):
        return
    case = sanitize.failing_case(g.problem, result)
    if case is None:
        return
    try:
        result.sanitizer = sanitize.run(
            g.problem, g.source, g.language, case, g.progress, session.pool
        )
    except Exception:  # the verdict is what matters: a sanitizer that fails only logs
        log.exception("sanitizer run failed for %s", g.problem.slug)
    g.progress({"stage": "done", "verdict": str(result.verdict)})


class Session:
    """One grading's phases, in order: validate, compile, start the runner (and calibrate on a
    GPU), load, precompile, tests, benchmarks."""

    def __init__(self, g: Grading) -> None:
        self.g = g
        self.channel = Channel(self.g)
        self.cases = Cases(self.g, self.channel)
        self.cal = calibration.Calibration()  # measured on a GPU by _start_runner
        self.pool: RunnerPool | None = None
        self.static_policy = True
        self.source_key = ""  # sourcecache.key, for a Triton submission on a GPU

    def run(self) -> GradeResult:
        g = self.g
        try:
            self.validate_source()
            lib = self.compile()
            if g.dev == "cpu" and not g.lang.runs_on_cpu:
                raise Stop(
                    Verdict.NOT_RUN, f"compiled; no GPU on this worker to run {g.lang.label}"
                )
            self._start_runner()
            self.load(lib)
            self._precompile()
            self.cases.run_tests()
            if g.mode == "submit" and g.dev == "cuda":
                if self.pool is not None:
                    # No runner of the pool may be creating a CUDA context while timing.
                    with g.timed("settle"):
                        self.pool.settle(RUNNER_START_S, warm=False)
                bench.Bench(g, self.channel, self.cases, self.cal).run()
            g.result.verdict = Verdict.ACCEPTED
        except Stop as s:
            g.result.verdict, g.result.message = s.verdict, s.message
        if self.channel.runner is not None:
            g.result.stdout = self.channel.runner.output()
        g.progress({"stage": "done", "verdict": str(g.result.verdict)})
        return g.result

    def validate_source(self) -> None:
        g = self.g
        lang = languages.get(g.language)
        if lang is None:
            raise Stop(
                Verdict.COMPILE_ERROR,
                f"unknown language {g.language!r}: use one of {', '.join(languages.names())}",
            )
        g.lang = lang
        if not g.source.strip():
            raise Stop(Verdict.COMPILE_ERROR, "the submission is empty")
        if len(g.source.encode()) > MAX_SOURCE_BYTES:
            raise Stop(
                Verdict.COMPILE_ERROR, f"the submission is larger than {MAX_SOURCE_BYTES >> 10} KiB"
            )

    def compile(self) -> str:
        """The language's ``prepare`` (languages/): the file the runner loads."""
        g = self.g
        g.progress({"stage": "compiling"})
        try:
            prep = g.lang.prepare(
                g.source,
                g.workdir,
                g.problem,
                static_policy=self.static_policy,
                compile_s=g.problem.limits.compile_s,
            )
        except Refused as r:
            if r.compile is not None:
                g.result.compile = r.compile
            if r.compile_s is not None:
                g.result.phases["compile"] = round(r.compile_s, 4)
            raise Stop(Verdict(r.verdict), r.message) from r
        g.result.compile = prep.compile
        if prep.compile_s is not None:
            g.result.phases["compile"] = round(prep.compile_s, 4)
        return prep.path

    def _start_runner(self) -> None:
        g, ch = self.g, self.channel
        t0 = time.monotonic()
        if ch.runner is None:
            limits = default_limits(
                g.dev,
                g.problem.limits.host_memory_mb,
                int(g.problem.limits.total_s * 2) + 60,
            )
            ch.runner = RunnerClient(g.workdir, g.dev, limits, runner_env(g.dev))
        runner = ch.runner
        try:
            runner.wait_ready(RUNNER_START_S)
        except (RunnerDied, RunnerTimeout) as e:
            raise Stop(Verdict.INTERNAL_ERROR, f"the runner did not start: {e}") from e
        g.phase("sandbox_start", t0)
        if runner.init_s is not None:  # done ahead of demand with a pool: not waited for
            g.result.phases["cuda_init"] = runner.init_s
        if g.dev == "cuda":
            if self.pool is not None and g.mode == "submit":
                # The calibration's pings are subtracted from every timed call: no spare may be
                # creating its CUDA context meanwhile (one a previous grading's end let start;
                # a tool's spare takes longest, profile/spare.py).
                with g.timed("settle"):
                    self.pool.settle(RUNNER_START_S, warm=False)
            with g.timed("calibrate"):
                self.cal = calibration.calibrate(g, ch)
            ch.meter = gpumem.Meter(runner.proc.tree())
            if not ch.meter.per_process and self.pool is not None:
                # the device-wide reading: no spare runner may be creating its context meanwhile
                self.pool.settle(RUNNER_START_S, warm=False)
                ch.meter = gpumem.Meter(runner.proc.tree())

    def load(self, lib: str) -> None:
        g, ch = self.g, self.channel
        t0 = time.monotonic()
        msg = ch.request(
            g.problem.limits.compile_s,
            "loading",
            messages.Load(
                op="load",
                language=g.language,
                path=lib,
                argtypes=["ptr" if a.is_tensor else "int" for a in g.problem.args],
                roles=[a.role for a in g.problem.args],
                forbid_library=g.lang.library_rule(g.problem),
                gpu_budget_mb=g.problem.gpu_budget_mb(),
                source_cache=self._source_cache(),
            ),
        )
        g.phase("load", t0)
        ch.raise_if_error(msg)
        ch.check_memory("once loaded")

    def _source_cache(self) -> str | None:
        """The folder of this source's compiled kernels, if an earlier grading left one."""
        g = self.g
        if not g.lang.precompiles or g.dev != "cuda":
            return None
        self.source_key = sourcecache.key(g.problem.slug, g.source, g.result.device)
        hit = sourcecache.folder(self.source_key) is not None
        g.result.phases["source_cache_hit"] = int(hit)
        return self.source_key if hit else None

    def _precompile(self) -> None:
        """A Triton submission compiles the kernels of every case at once, in parallel, before
        its first test (precompile.py); under the compile limit. Only speed: a failure here is
        not a verdict (the real calls compile what is missing and fail as they would)."""
        g, ch = self.g, self.channel
        if not g.lang.precompiles or g.dev != "cuda":
            return
        p = g.problem
        bench_cases = p.benchmarks if g.mode == "submit" else []
        cases = [precompile.placeholder(p, c, autotune.TUNE_FIRST) for c in p.tests]
        cases += [precompile.placeholder(p, c, autotune.TUNE_FULL) for c in bench_cases]
        g.progress({"stage": "compiling"})
        ch.activity = {"stage": "compiling"}
        t0 = time.monotonic()
        try:
            msg = ch.request(
                p.limits.compile_s, "compiling", messages.Precompile(op="precompile", cases=cases)
            )
        finally:
            ch.activity = None
            g.phase("precompile", t0)
        log.info("precompiled: %s", str(msg)[:400])
        if msg.get("op") == "precompiled":
            for k in ("kernels", "failed", "cases_cut_short", "host_ms", "wait_ms", "threads"):
                g.result.phases[f"precompile_{k}"] = count(msg.get(k))
        else:
            log.info("precompile answered %s", str(msg)[:200])

    def close(self) -> None:
        self.channel.close()
