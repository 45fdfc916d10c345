"""Sanitize: a failing case once more under compute-sanitizer, findings mapped to the source.

On a GPU, when a CUDA or Triton submission ends ``wrong_answer`` or ``runtime_error`` (and on
demand, ``--mode sanitize``), the case that failed runs again in a dedicated runner under
``compute-sanitizer --tool memcheck`` in the grading sandbox (toolrun.py), on exact-size copies
of its buffers (instrument.py), so that a write past the end of an output is out of bounds for
memcheck too. When memcheck finds nothing and a CUDA source declares ``__shared__`` memory,
racecheck runs next. nvcc compiles with ``-lineinfo`` (compilers.py) and Triton keeps its
kernels' Python lines, so a finding names ``solution.cu:12`` or ``solution.py:9``.

On the CPU the interpreter's own check does the same job in every call (bounds.py); the referee
gathers its findings (findings.py) and attaches them to a failing result.

A sanitizer run changes no verdict: its findings are attached to the result as they are.
"""

from __future__ import annotations

import logging
import time

from judge.problem import dtypes
from judge.problem.schema import Case, Problem
from judge.profile import artifact, sanitizer, spare, tools
from judge.profile.report import SanitizerReport
from judge.profile.toolrun import ToolRun
from judge.results import GradeResult
from judge.session import Progress, Stop
from judge.verdicts import Verdict

log = logging.getLogger(__name__)

BUDGET_S = 120.0
LOG_LIMIT = 4 << 20
LOG_DIR = tools.SANITIZER_DIR
LANGUAGES = ("cuda", "triton")
FAILURES = (Verdict.WRONG_ANSWER, Verdict.RUNTIME_ERROR)


def wanted(result: GradeResult, mode: str, device: str) -> bool:
    """Whether a grading's result gets a sanitizer run: a failing CUDA or Triton submission,
    or any on demand."""
    if device != "cuda" or result.language not in LANGUAGES:
        return False
    if mode == "sanitize":
        return result.verdict not in (Verdict.COMPILE_ERROR, Verdict.REJECTED)
    return result.verdict in FAILURES


def failing_case(problem: Problem, result: GradeResult) -> Case | None:
    """The case to run again: the first that failed, the benchmark the message names, or the
    test that was running when the runner failed (tests run in order, passing ones recorded)."""
    by_name = {c.name: c for c in (*problem.tests, *problem.benchmarks)}
    for c in result.cases:
        if not c.passed and c.name in by_name:
            return by_name[c.name]
    for b in problem.benchmarks:
        if result.message.startswith(f"benchmark {b.name}:"):
            return b
    done = len(result.cases)
    if done < len(problem.tests):
        return problem.tests[done]
    return problem.tests[0] if problem.tests else None


def run(
    problem: Problem,
    source: str,
    language: str,
    case: Case,
    progress: Progress,
    pool: spare.Holder | None = None,
) -> SanitizerReport:
    """``case`` under memcheck (then racecheck, see above); ``pool``: the worker's runner pool,
    which may hold a runner already started under memcheck (spare.py)."""
    path = tools.sanitizer_path()
    if path is None:
        return SanitizerReport(
            "memcheck", enabled=False, message="compute-sanitizer is not installed on this worker"
        )
    t0 = time.monotonic()
    report = _tool(path, "memcheck", problem, source, language, case, progress, pool)
    if not report.findings and language == "cuda" and "__shared__" in source and report.enabled:
        race = _tool(path, "racecheck", problem, source, language, case, progress)
        if race.findings or not race.enabled:
            report = race
    report.seconds = round(time.monotonic() - t0, 2)
    if report.enabled and not report.findings and not report.message:
        report.message = f"{report.tool} found no memory error on {case.name}"
    return report


def _tool(
    path: str,
    tool: str,
    problem: Problem,
    source: str,
    language: str,
    case: Case,
    progress: Progress,
    pool: spare.Holder | None = None,
) -> SanitizerReport:
    report = SanitizerReport(tool, case=case.name)
    spec = spare.sanitizer(path, tool)
    run_ = ToolRun(
        problem,
        source,
        language,
        wrap=[],
        read_only=spec.read_only,
        env=dict(spec.env),
        budget_s=min(BUDGET_S, max(60.0, problem.limits.total_s)),
        progress=lambda e: None,  # the grading's own stages are over: only "sanitizing" shows
        runner=spare.take(pool, spec, problem),  # a runner already up under the tool, if any
    )
    spec.prepare(run_.workdir)
    run_.wrap = spec.wrap(run_.workdir)
    allocations: dict[str, tuple[int, int]] = {}
    try:
        try:
            progress({"stage": "sanitizing", "detail": f"{tool} on {case.name}"})
            run_.start()
            bufs, allocations = run_.bind(case, "s1", private=True)
            run_.run_case(case, "s1", bufs)
        except Stop as s:  # the fault being looked for, most of the time
            log.info("%s run ended %s: %s", tool, s.verdict, s.message[:200])
            if s.verdict in (Verdict.COMPILE_ERROR, Verdict.INTERNAL_ERROR) and not allocations:
                report.enabled = False
                report.message = f"{tool} could not run the submission: {s.message[:300]}"
        run_.finish()  # the tool writes the rest of its log once the runner has exited
        text = artifact.read(run_.workdir / LOG_DIR / f"{tool}.log", LOG_LIMIT)
    except FileNotFoundError:
        text = b""
    except artifact.Unsafe as e:
        report.message = f"the {tool} log was not kept: {e}"
        return report
    finally:
        run_.close()
    sizes = {a.name: dtypes.get(a.dtype).itemsize for a in problem.args if a.is_tensor}
    report.findings, report.errors = sanitizer.parse(
        text.decode("utf-8", "replace"), allocations, sizes
    )
    return report
