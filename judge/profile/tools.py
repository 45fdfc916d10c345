"""Finding Nsight Compute and compute-sanitizer, their command lines, and when they cannot run.

Both ship with the CUDA toolkit (``/usr/local/cuda/bin``; ncu also under
``/opt/nvidia/nsight-compute/<version>``). ``KERNELDOJO_NCU`` and
``KERNELDOJO_COMPUTE_SANITIZER`` name them elsewhere. They run inside the grading sandbox, which
binds ``/usr`` and ``/opt`` read-only; a tool installed elsewhere has its folder bound too.

Performance counters are for admin users only unless the host's NVIDIA driver is loaded with
``NVreg_RestrictProfilingToAdminUsers=0`` (docs/profiling.md). The sandbox's user is never an
admin, so on such a host ncu fails with ``ERR_NVGPUCTRPERM``: the profile then says "profiling
is not enabled on this worker", never an internal error. compute-sanitizer needs no counters.
"""

from __future__ import annotations

import glob
import os
import shutil
from pathlib import Path

NCU_ENV = "KERNELDOJO_NCU"
SANITIZER_ENV = "KERNELDOJO_COMPUTE_SANITIZER"
NVTX_RANGE = "kd_solve"  # the runner's range around the profiled call (instrument.py)
REPORT_DIR = "profile"  # in the sandbox's work folder
REPORT_NAME = "report"  # ncu adds .ncu-rep
SANITIZER_DIR = "sanitizer"  # compute-sanitizer's logs, in the sandbox's work folder
# Kernels profiled at most: each is replayed ~40 times under the full set.
LAUNCH_COUNT = 24
NOT_ENABLED = "profiling is not enabled on this worker"
_COUNTER_ERRORS = ("ERR_NVGPUCTRPERM", "RestrictProfilingToAdminUsers")


def _first_existing(*candidates: str | None) -> str | None:
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.realpath(c)
    return None


def ncu_path() -> str | None:
    """The ``ncu`` to run, or None when this worker has none."""
    found = [os.environ.get(NCU_ENV), shutil.which("ncu"), "/usr/local/cuda/bin/ncu"]
    found += sorted(glob.glob("/opt/nvidia/nsight-compute/*/ncu"), reverse=True)
    found += sorted(glob.glob("/usr/local/cuda*/nsight-compute*/ncu"), reverse=True)
    return _first_existing(*found)


def sanitizer_path() -> str | None:
    """The ``compute-sanitizer`` to run, or None."""
    return _first_existing(
        os.environ.get(SANITIZER_ENV),
        shutil.which("compute-sanitizer"),
        "/usr/local/cuda/bin/compute-sanitizer",
        "/usr/local/cuda/compute-sanitizer/compute-sanitizer",
    )


def install_root(tool: str) -> str | None:
    """The folder to bind read-only for a tool outside ``/usr`` and ``/opt`` (its install's
    top: ncu and compute-sanitizer load libraries and sections from beside themselves)."""
    real = Path(tool).resolve()
    if str(real).startswith(("/usr/", "/opt/")):
        return None
    # .../nsight-compute-2025.1.0/ncu, .../compute-sanitizer/compute-sanitizer, .../bin/x
    parent = real.parent
    return str(parent.parent if parent.name == "bin" else parent)


def ncu_command(ncu: str, report: str) -> list[str]:
    """ncu in front of the runner: only kernels inside the runner's NVTX range, every section
    of the full set, the source view, a fresh cache per replay (as the judge flushes L2 before
    every timed call) and the GPU's clocks left alone (as the judge leaves them, so durations
    and throughputs compare with the benchmark's)."""
    return [
        ncu,
        "--nvtx",
        "--nvtx-include",
        f"{NVTX_RANGE}/",
        "--set",
        "full",
        "--import-source",
        "yes",
        "--cache-control",
        "all",
        "--clock-control",
        "none",
        "--target-processes",
        "application-only",
        "--launch-count",
        str(LAUNCH_COUNT),
        "-f",
        "-o",
        report,
    ]


def import_command(ncu: str, report: str, page: str) -> list[str]:
    """ncu reading a report back as CSV: ``raw`` (every metric by name) or ``details``."""
    return [ncu, "--import", report, "--csv", "--page", page, "--print-units", "base"]


def sanitizer_command(tool_path: str, tool: str, log_file: str) -> list[str]:
    """compute-sanitizer in front of the runner: ``memcheck`` or ``racecheck``, findings to a
    log file (the runner's stdout is the submission's own), the first ones only.

    ``--launch-timeout 0``: the tool waits for the runner's CUDA context however long it takes.
    By default it gives up after 10 s ("No attachable process found") and the runner's CUDA
    start-up then never returns; a runner imports torch (~7 s on a fresh H100 host) and a kept
    one starts its device only when told (profile/spare.py), so 10 s was often not enough: 2 of
    3 kept runners on a fresh host hung so (benchmarks/README.md, 'Profile and sanitize spares').
    Our own limits bound the wait (``TOOL_READY_S``, the run's budget)."""
    argv = [
        tool_path,
        "--tool",
        tool,
        "--launch-timeout",
        "0",
        "--print-limit",
        "20",
        "--target-processes",
        "application-only",
        "--log-file",
        log_file,
        "--report-api-errors",
        "no",
        "--show-backtrace",
        "device",
    ]
    if tool == "memcheck":
        argv += ["--leak-check", "no"]
    if tool == "racecheck":
        argv += ["--racecheck-report", "analysis"]
    return argv


def counters_restricted(output: str) -> bool:
    """Whether ncu's output says the performance counters are closed to this user."""
    return any(word in output for word in _COUNTER_ERRORS)


def not_enabled_message(why: str) -> str:
    return f"{NOT_ENABLED}: {why}"


COUNTERS_HELP = (
    "the GPU's performance counters are restricted to administrators (ERR_NVGPUCTRPERM); the "
    "host's NVIDIA driver needs NVreg_RestrictProfilingToAdminUsers=0 (docs/profiling.md)"
)
MISSING_HELP = "Nsight Compute (ncu) is not installed on this worker"


REPORT_DIR_ENV = "KERNELDOJO_PROFILE_DIR"


def report_dir() -> Path:
    """Where the referee keeps profile reports for download (``KERNELDOJO_PROFILE_DIR``; the
    web worker sets it under its data folder)."""
    import tempfile

    return Path(
        os.environ.get(REPORT_DIR_ENV) or Path(tempfile.gettempdir()) / "kerneldojo-profiles"
    )
