"""The profiler's spare: a runner started under Nsight Compute ahead of a learner's Profile.

Starting the runner under ncu took 14.0 of a profile's 20.7 s on an H100 (its imports and CUDA
start-up with ncu injected: ``benchmarks/gpu-check/2026-11-25g-h100/profile-latency.log``). A GPU
worker keeps one started ahead of demand, held by its runner pool (``RunnerPool.keep``), which
lets it create its CUDA context only while nothing is being timed, as it does for its own spares.
A profile takes it (``take``) and a replacement starts in the background (``replenish``).

Nothing of a submission has run in a spare when it is taken: it is the runner a profile would
have started itself (same sandbox, same ncu command line, a work folder of its own), only
started earlier, and it is used once. Its limits are the grading pool's (``default_limits``),
so a problem that asks for more host memory than those starts its own runner, as before.

``KERNELDOJO_PROFILE_SPARE=0`` keeps none: the spare holds a CUDA context and its process's
memory while it waits.
"""

from __future__ import annotations

import logging
import os
import tempfile
import threading
from pathlib import Path
from typing import Protocol

from worker.grading import sandbox
from worker.grading.profile import tools
from worker.grading.runner_client import RunnerClient, default_limits, runner_env
from worker.grading.schema import Problem

log = logging.getLogger(__name__)

DEFAULT_HOST_MEMORY_MB = 8192  # default_limits' own: the spare's limit


class Holder(Protocol):
    """What keeps the spare between profiles (runner_client.RunnerPool)."""

    device: str

    def keep(self, key: str, client: RunnerClient) -> None: ...

    def take(self, key: str) -> RunnerClient | None: ...


def enabled() -> bool:
    return os.environ.get("KERNELDOJO_PROFILE_SPARE", "1") != "0"


def report_path(workdir: Path) -> str:
    """Where ncu writes its report, as the runner sees its work folder."""
    base = sandbox.SANDBOX_WORKDIR if sandbox.mode() != "off" else str(workdir)
    return f"{base}/{tools.REPORT_DIR}/{tools.REPORT_NAME}"


def prepare_workdir(workdir: Path) -> None:
    """The report folder, writable by the sandbox's user."""
    (workdir / tools.REPORT_DIR).mkdir(mode=0o777, exist_ok=True)
    (workdir / tools.REPORT_DIR).chmod(0o777)


def read_only(ncu: str) -> list[str]:
    """Host folders the runner under ncu sees read-only: ncu's own installation."""
    return [r for r in (tools.install_root(ncu),) if r]


def key(ncu: str) -> str:
    """The pool's key for a spare under this ncu (its command line is fixed by the path)."""
    return f"ncu:{ncu}"


def launch(ncu: str) -> RunnerClient:
    """A runner started under ncu with the profiler's command line, in a folder of its own."""
    workdir = Path(tempfile.mkdtemp(prefix="kerneldojo-tool-"))
    workdir.chmod(0o777)
    prepare_workdir(workdir)
    return RunnerClient(
        workdir,
        "cuda",
        default_limits("cuda", DEFAULT_HOST_MEMORY_MB),
        runner_env("cuda"),
        owns_workdir=True,
        wrap=tools.ncu_command(ncu, report_path(workdir)),
        read_only=read_only(ncu),
    )


def take(pool: Holder | None, ncu: str, problem: Problem) -> RunnerClient | None:
    """The spare, if the pool holds a live one and the problem's limits are the spare's."""
    if pool is None or pool.device != "cuda":
        return None
    if problem.limits.host_memory_mb > DEFAULT_HOST_MEMORY_MB:
        return None
    return pool.take(key(ncu))


def replenish(pool: Holder | None, ncu: str | None) -> threading.Thread | None:
    """Start the next spare in the background (spawning it is no learner's wait)."""
    if pool is None or pool.device != "cuda" or ncu is None or not enabled():
        return None

    def start() -> None:
        try:
            pool.keep(key(ncu), launch(ncu))
        except Exception:  # the next profile starts its own runner, as without a spare
            log.exception("could not start the profiler's spare runner")

    t = threading.Thread(target=start, name="profile-spare", daemon=True)
    t.start()
    return t
