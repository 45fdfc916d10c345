"""The referee: grades one submission against one problem.

This process is trusted. It generates every input from a secret seed, keeps a private copy
of the inputs and the expected outputs, and hands the sandboxed runner only shared buffers
for the arguments. After each call it checks the outputs itself; for timed calls it also
freezes the runner between calls (no background work outside the timed window), checks that
the outputs do not change after the call returned (no deferred writes), and cross-checks the
runner's CUDA-event time with its own clock (no forged timer).

This module chooses the mode (grade, profile, sanitize) and runs the phases (phases.py); the
parts share one ``session.Grading``: the runner conversation (sandbox/channel.py, messages.py),
the test cases (cases.py), the referee's overheads (timing/calibration.py) and the benchmark
timing (timing/bench.py).
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
from pathlib import Path

from judge import languages
from judge.build import cachepaths, sourcecache, tritoncache
from judge.phases import RUNNER_START_S, Session
from judge.problem.schema import Problem
from judge.results import GradeResult
from judge.sandbox.runner_client import (
    RunnerPool,
)
from judge.session import Grading, Progress, Stop
from judge.verdicts import Verdict

__all__ = ["RUNNER_START_S", "Progress", "Session", "Stop", "grade", "resolve_device"]

log = logging.getLogger(__name__)


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
    ``all_cases=False``: the tests stop at the first failing case, for the same checks.

    On the CPU device a time_limit_exceeded is confirmed before it is returned: where the
    runner got well under its limit of CPU time, it is graded once more (``_starved``)."""
    dev = resolve_device(device)
    if mode == "profile" and problem.gpus == 1:
        return _profile(
            problem, source, language, dev, on_progress, report_dir, pool, static_policy
        )
    if dev == "cuda":
        cachepaths.shared_dir()  # this process's Triton cache, before it compiles anything
    args = (problem, source, language, dev, mode, on_progress, pool, static_policy)
    result, timed_out = _attempt(*args, sanitize, all_cases)
    if timed_out is not None and _starved(result, *timed_out):
        ran, limit = timed_out
        log.warning(
            "%s: time_limit_exceeded with %.2f s of CPU in a limit of %.1f s: graded once more",
            problem.slug,
            ran,
            limit,
        )
        result, _ = _attempt(*args, sanitize, all_cases)
        result.phases["tle_retried"] = 1
        result.phases["tle_first_cpu_s"] = round(ran, 2)
    return result


# A CPU-device time-out whose runner ran less than this share of its limit on a CPU is graded
# once more: a submission that spins uses its CPU time and is not; one that the machine starved
# (a CPU quota, a stopped or preempted runner, a run queue longer than cpuwait.py credits) is.
# So is one that sleeps or blocks: it times out again, which costs one more grading, never two.
CONFIRM_SHARE = 0.5


def _starved(result: GradeResult, ran: float, limit: float) -> bool:
    """Whether ``result`` is a time-out that its runner's CPU time does not confirm: ``ran``
    seconds of CPU (measured by the referee: cpuwait.Clock.ran) in the ``limit`` that ran out."""
    return result.verdict == Verdict.TIME_LIMIT_EXCEEDED and ran < CONFIRM_SHARE * limit


def _attempt(
    problem: Problem,
    source: str,
    language: str,
    dev: str,
    mode: str,
    on_progress: Progress | None,
    pool: RunnerPool | None,
    static_policy: bool,
    sanitize: bool | None,
    all_cases: bool,
) -> tuple[GradeResult, tuple[float, float] | None]:
    """One grading in a fresh runner: its result, and on the CPU device the limit that ran out
    (``Grading.timed_out``)."""
    if problem.gpus > 1:  # a runner per rank, none from the pool (docs/multi-gpu.md)
        from judge.ranks import grading as ranks

        return ranks.attempt(
            problem,
            source,
            language,
            dev=dev,
            mode=mode,
            on_progress=on_progress,
            static_policy=static_policy,
            all_cases=all_cases,
        )
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
            return result, session.g.timed_out
        except Exception as e:  # a bug of ours: report it, never crash the worker
            log.exception("internal error grading %s", problem.slug)
            session.g.result.verdict = Verdict.INTERNAL_ERROR
            session.g.result.message = f"internal error: {type(e).__name__}: {e}"
            return session.g.result, None
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
    static_policy: bool = True,
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
                problem,
                source,
                language,
                progress,
                report_dir or tools.report_dir(),
                pool,
                static_policy=static_policy,
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
