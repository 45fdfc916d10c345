"""Profile mode: the submission once under Nsight Compute, on the problem's first benchmark case.

A dedicated runner starts under ``ncu`` in the grading sandbox (toolrun.py). A first call,
outside the profiled range, compiles and autotunes at the case's sizes; a second call, inside
the runner's NVTX range, is the one ncu profiles (``--nvtx-include kd_solve/``): only the
kernels ``solve`` launches, each replayed for the full set of sections. Both outputs are
checked by the referee, as in grading. When the runner has exited, ncu has written its report
into the work folder; the referee takes a checked copy (artifact.py), has ncu read that copy
back as CSV in a sandbox of its own without the GPU (a report is the submission's output too),
and turns it into figures, a roofline position and three hints.

A profile changes no verdict and no rank: its result says whether the profiled run's output
was right, and carries the profile. Counters closed to unprivileged users, or no ncu at all,
give "profiling is not enabled on this worker" (tools.py), never an internal error.
"""

from __future__ import annotations

import logging
import secrets
import shutil
import tempfile
import time
from pathlib import Path

from judge.build import autotune
from judge.problem.schema import Problem
from judge.profile import artifact, hints, metrics, roofline, spare, tools
from judge.profile.report import ProfileReport
from judge.profile.toolrun import ToolRun
from judge.results import GradeResult
from judge.sandbox import bubblewrap
from judge.session import Progress, Stop
from judge.timing import measure
from judge.verdicts import Verdict

log = logging.getLogger(__name__)

# The profile's own budget (start-up, two calls, ~40 replays of each kernel, the report): the
# problem's total limit, within these bounds.
BUDGET_S = 240.0
MIN_BUDGET_S = 60.0
IMPORT_S = 60.0
REPORT_LIMIT = 256 << 20
CSV_LIMIT = 16 << 20
TENSOR_UNITS = ("tf32", "fp16", "bf16", "fp8", "int8")


def run(
    problem: Problem,
    source: str,
    language: str,
    progress: Progress,
    report_dir: Path,
    pool: spare.Holder | None = None,
    *,
    static_policy: bool = True,
) -> GradeResult:
    """Profile ``source`` on ``problem``'s first benchmark case (a GPU worker). ``pool``: the
    worker's runner pool, which may hold a runner already started under ncu (spare.py)."""
    ncu = tools.ncu_path()
    result = GradeResult(Verdict.NOT_RUN, problem.slug, language, "cuda")
    if ncu is None:
        result.message = tools.not_enabled_message(tools.MISSING_HELP)
        result.profile = ProfileReport(enabled=False, message=result.message)
        return result
    if not problem.benchmarks:
        result.message = "this problem has no benchmark case to profile"
        return result
    case = problem.benchmarks[0]
    t0 = time.monotonic()
    tool = spare.ncu(ncu)
    started = spare.take(pool, tool, problem)  # a runner already up under ncu, if one waits
    run_ = ToolRun(
        problem,
        source,
        language,
        wrap=[],  # set below, once the work folder is known
        read_only=tool.read_only,
        budget_s=budget(problem),
        progress=progress,
        runner=started,
    )
    run_.session.static_policy = static_policy  # off only for tests of the defences behind it
    tool.prepare(run_.workdir)
    run_.wrap = tool.wrap(run_.workdir)
    result = run_.result
    result.phases["profile_spare"] = int(started is not None)
    report = ProfileReport(enabled=True, case=case.name)
    result.profile = report
    reached = False  # whether the profiled call was made
    try:
        progress({"stage": "profiling", "detail": "starting the profiler"})
        run_.start()
        _lap(result, "profile_start", t0)
        # The runner's own plain allocations, as a standalone program has (instrument.py): ncu
        # saves and restores a kernel's memory between replays, which it may not do for memory
        # mapped from another process (the judge's shared buffers).
        bufs, _ = run_.bind(case, "p1", private=True)
        progress({"stage": "profiling", "detail": f"first call on {case.name}"})
        first = run_.run_case(case, "p1", bufs, tune=autotune.TUNE_FULL)
        _lap(result, "profile_first_call", t0)
        progress({"stage": "profiling", "detail": f"profiling {case.name}"})
        reached = True
        second = run_.run_case(case, "p1", bufs, nvtx=True, tune=autotune.TUNE_FULL)
        _lap(result, "profile_replays", t0)
        run_.finish()
        ok, message = first if not first[0] else second
        result.verdict = Verdict.ACCEPTED if ok else Verdict.WRONG_ANSWER
        result.message = (
            f"profiled on {case.name}; its output was correct (a profile runs no tests and "
            "times nothing)"
            if ok
            else f"{case.name}: {message} (profiled all the same)"
        )
    except Stop as s:
        result.verdict, result.message = s.verdict, s.message
        run_.finish()
    except BaseException:  # a bug of ours (the grader reports it): the runner must not outlive it
        run_.close()
        raise
    output = run_.output()
    result.stdout = _learner_output(output)
    try:
        if reached or tools.counters_restricted(output):
            _collect(report, run_.workdir, output, problem, case.params, ncu, report_dir)
        else:
            report.enabled = False
            report.message = f"nothing was profiled: {result.message}"[:600]
    except Exception as e:  # a bug of ours reading the report: the run's verdict stands
        log.exception("reading the profile of %s", problem.slug)
        report.enabled = False
        report.message = f"the profile could not be read: {type(e).__name__}: {e}"
    finally:
        run_.close()
    report.seconds = round(time.monotonic() - t0, 2)
    _lap(result, "profile_report", t0)
    result.phases["profile"] = report.seconds
    progress({"stage": "done", "verdict": str(result.verdict)})
    return result


def _lap(result: GradeResult, name: str, t0: float) -> None:
    """Seconds since ``t0`` spent in this step (the steps before it subtracted): where a
    profile's time goes, for ``benchmarks/profile_latency.py``."""
    before = sum(v for k, v in result.phases.items() if k.startswith("profile_"))
    result.phases[name] = round(time.monotonic() - t0 - before, 3)


def budget(problem: Problem) -> float:
    return min(BUDGET_S, max(MIN_BUDGET_S, problem.limits.total_s))


def _learner_output(output: str) -> str:
    """The runner's log without ncu's own lines (those go to the profile's message)."""
    own = ("==PROF==", "==WARNING==", "==ERROR==")
    return "\n".join(ln for ln in output.splitlines() if not ln.startswith(own))


def _tool_lines(output: str) -> list[str]:
    return [ln for ln in output.splitlines() if ln.startswith(("==ERROR==", "==WARNING=="))]


def _collect(
    report: ProfileReport,
    workdir: Path,
    output: str,
    problem: Problem,
    params: dict[str, int],
    ncu: str,
    report_dir: Path,
) -> None:
    """The report's copy kept, read back, and turned into figures and hints."""
    if tools.counters_restricted(output):
        report.enabled = False
        report.message = tools.not_enabled_message(tools.COUNTERS_HELP)
        return
    path = workdir / tools.REPORT_DIR / f"{tools.REPORT_NAME}.ncu-rep"
    try:
        data = artifact.read(path, REPORT_LIMIT)
    except FileNotFoundError:
        lines = _tool_lines(output)
        report.message = "ncu wrote no report" + (f": {lines[-1]}" if lines else "")
        return
    except artifact.Unsafe as e:
        report.message = f"the profile's report was not kept: {e}"
        return
    name = f"{problem.slug}-{secrets.token_hex(8)}.ncu-rep"
    kept = artifact.keep(data, report_dir, name)
    report.report_file, report.report_bytes = name, len(data)
    text = import_csv(ncu, kept, "raw")
    report.kernels = metrics.kernels(text)
    if not report.kernels:
        report.message = "solve launched no kernel inside the profiled call"
        return
    flops, nbytes = problem.roofline.counts(params)
    report.roofline = roofline.place(
        report.kernels,
        float(flops),
        float(nbytes),
        measure.ceiling(problem.roofline.compute) if flops else 0.0,
        measure.ceiling("copy"),
    )
    report.hints = hints.derive(
        report.kernels,
        report.roofline,
        float(nbytes),
        tensor_problem=problem.roofline.compute in TENSOR_UNITS,
    )


def import_csv(ncu: str, report: Path, page: str) -> str:
    """ncu's CSV page of a report, read in a sandbox of its own (no GPU, no network)."""
    folder = Path(tempfile.mkdtemp(prefix="kerneldojo-ncu-"))
    try:
        folder.chmod(0o777)
        shutil.copyfile(report, folder / "report.ncu-rep")
        (folder / "report.ncu-rep").chmod(0o644)
        inside = bubblewrap.SANDBOX_WORKDIR if bubblewrap.mode() != "off" else str(folder)
        policy = bubblewrap.Policy(
            workdir=folder,
            read_only=tuple(r for r in (tools.install_root(ncu),) if r),
            limits=bubblewrap.Limits(cpu_s=int(IMPORT_S), file_mb=64),
        )
        argv = tools.import_command(ncu, f"{inside}/report.ncu-rep", page)
        code, text, timed_out = bubblewrap.run(argv, policy, IMPORT_S, max_output=CSV_LIMIT)
        if timed_out or code != 0:
            raise RuntimeError(
                f"ncu --import {'timed out' if timed_out else f'exited with {code}'}: {text[-300:]}"
            )
        return text
    finally:
        shutil.rmtree(folder, ignore_errors=True)
