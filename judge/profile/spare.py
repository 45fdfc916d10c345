"""Spare tool runners: a runner started under Nsight Compute or memcheck ahead of demand.

Starting the runner under ncu took 14.0 of a profile's 20.7 s on an H100 (its imports and CUDA
start-up with ncu injected; benchmarks/README.md, 'Profile and sanitize spares'), and
a sanitizer run starts one under compute-sanitizer the same way. A GPU worker keeps one runner
started under each of ``ncu`` and ``compute-sanitizer --tool memcheck``, held by its runner pool
(``RunnerPool.keep``), which lets them create their CUDA contexts only while nothing is being
timed, as it does for its own spares. A profile or a sanitizer run takes the one for its tool
(``take``) and a replacement starts in the background (``replenish``).

Nothing of a submission has run in a spare when it is taken: it is the runner the run would
have started itself (same sandbox, same command line, a work folder of its own), only started
earlier, and it is used once. Its limits are the grading pool's (``default_limits``), so a
problem that asks for more host memory than those starts its own runner, as before. racecheck,
which runs only after a clean memcheck of a CUDA source with shared memory, has no spare.

``KERNELDOJO_PROFILE_SPARE=0`` keeps none: each spare holds a CUDA context and its process's
memory while it waits.
"""

from __future__ import annotations

import logging
import os
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from judge.problem.schema import Limits, Problem
from judge.profile import tools
from judge.sandbox import bubblewrap
from judge.sandbox.runner_client import TOOL_READY_S, RunnerClient, default_limits, runner_env

log = logging.getLogger(__name__)

# A problem's default host memory (problem.toml's [limits]): the spare's limit.
DEFAULT_HOST_MEMORY_MB = Limits.host_memory_mb


class Holder(Protocol):
    """What keeps the spares between runs (runner_client.RunnerPool)."""

    device: str

    def keep(self, key: str, client: RunnerClient) -> None: ...

    def take(self, key: str) -> RunnerClient | None: ...

    def settle_kept(self, timeout_s: float) -> None: ...


@dataclass(frozen=True)
class Tool:
    """A tool's fixed command line in front of a runner: what a spare is started with."""

    key: str  # the pool's key: the tool and its path
    folder: str  # the work folder's sub-folder the tool writes into, writable by the sandbox
    command: Callable[[str], list[str]]  # the command, given that folder as the runner sees it
    read_only: tuple[str, ...]  # host folders the runner sees read-only (the tool's own)
    env: tuple[tuple[str, str], ...] = ()  # more environment for the runner
    # RLIMIT_CPU: the longest budget of a run under the tool plus 60 s, as a run started on
    # demand gets for its own budget (toolrun.py); an idle spare uses none of it.
    cpu_s: int = 300  # profiler.BUDGET_S + 60

    def wrap(self, workdir: Path) -> list[str]:
        base = bubblewrap.SANDBOX_WORKDIR if bubblewrap.mode() != "off" else str(workdir)
        return self.command(f"{base}/{self.folder}")

    def prepare(self, workdir: Path) -> None:
        """The tool's folder in ``workdir``, writable by the sandbox's user."""
        (workdir / self.folder).mkdir(mode=0o777, exist_ok=True)
        (workdir / self.folder).chmod(0o777)


def _own_folder(path: str) -> tuple[str, ...]:
    return tuple(r for r in (tools.install_root(path),) if r)


def ncu(path: str) -> Tool:
    """Nsight Compute as the profiler runs it (tools.ncu_command)."""
    return Tool(
        f"ncu:{path}",
        tools.REPORT_DIR,
        lambda d: tools.ncu_command(path, f"{d}/{tools.REPORT_NAME}"),
        _own_folder(path),
    )


def sanitizer(path: str, tool: str) -> Tool:
    """compute-sanitizer's ``tool`` (memcheck, racecheck) as sanitize.py runs it."""
    return Tool(
        f"{tool}:{path}",
        tools.SANITIZER_DIR,
        lambda d: tools.sanitizer_command(path, tool, f"{d}/{tool}.log"),
        _own_folder(path),
        (("PYTORCH_NO_CUDA_MEMORY_CACHING", "1"),),  # each tensor its own allocation
        cpu_s=180,  # sanitize.BUDGET_S + 60
    )


def kept_tools() -> list[Tool]:
    """The tools a GPU worker keeps a spare for: those installed, unless turned off."""
    if os.environ.get("KERNELDOJO_PROFILE_SPARE", "1") == "0":
        return []
    found = []
    if (n := tools.ncu_path()) is not None:
        found.append(ncu(n))
    if (s := tools.sanitizer_path()) is not None:
        found.append(sanitizer(s, "memcheck"))
    return found


def launch(tool: Tool) -> RunnerClient:
    """A runner started under ``tool`` in a work folder of its own."""
    workdir = Path(tempfile.mkdtemp(prefix="kerneldojo-tool-"))
    workdir.chmod(0o777)
    tool.prepare(workdir)
    return RunnerClient(
        workdir,
        "cuda",
        default_limits("cuda", DEFAULT_HOST_MEMORY_MB, tool.cpu_s),
        {**runner_env("cuda"), **dict(tool.env)},
        owns_workdir=True,
        wrap=tool.wrap(workdir),
        read_only=tool.read_only,
    )


def take(pool: Holder | None, tool: Tool, problem: Problem) -> RunnerClient | None:
    """The spare for ``tool`` if the pool holds a live one and the problem's limits are the
    spare's; then a replacement starts in the background (also where none was waiting)."""
    if pool is None or pool.device != "cuda":
        return None
    # No kept runner may be starting its device while this run's starts or is taken: a runner
    # under compute-sanitizer that started beside one under ncu never finished
    # (benchmarks/README.md, 'Profile and sanitize spares').
    pool.settle_kept(TOOL_READY_S)  # each is closed that long after its start
    if tool.key not in _keys():
        return None
    if problem.limits.host_memory_mb != DEFAULT_HOST_MEMORY_MB:  # the spare's limit is not its own
        return None  # the kept one stays for the next run: a replacement would close it
    client = pool.take(tool.key)
    replenish(pool, [tool])
    return client


def _keys() -> set[str]:
    return {t.key for t in kept_tools()}


def replenish(pool: Holder | None, wanted: list[Tool]) -> list[threading.Thread]:
    """Start a spare for each of ``wanted`` in the background (spawning is no learner's wait)."""
    if pool is None or pool.device != "cuda":
        return []
    started = []
    for tool in wanted:

        def start(tool: Tool = tool) -> None:
            try:
                pool.keep(tool.key, launch(tool))
            except Exception:  # the next run starts its own runner, as without a spare
                log.exception("could not start a spare runner under %s", tool.key)

        t = threading.Thread(target=start, name="tool-spare", daemon=True)
        t.start()
        started.append(t)
    return started
