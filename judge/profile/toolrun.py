"""One run of a submission in a dedicated runner started under a tool (ncu, compute-sanitizer).

The same sandbox as grading (``sandbox.py``: same namespaces, uid, limits, binds; the tool's own
folder bound read-only when it lives outside ``/usr`` and ``/opt``), a fresh work folder, the
source prepared again by its language (nothing is taken from the folder of the grading that
came before, which the submission could write), and the referee's own plumbing for a case:
fresh inputs from a secret seed, the expected outputs kept here, every output checked here.
The run has its own time budget; past it the whole process tree, tool included, is killed.
"""

from __future__ import annotations

import contextlib
import logging
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from judge.build import autotune
from judge.cases import bind_args
from judge.phases import Session
from judge.problem.schema import Case, Problem
from judge.sandbox import buffers, messages
from judge.sandbox.runner_client import (
    RunnerClient,
    RunnerDied,
    RunnerTimeout,
    default_limits,
    runner_env,
)
from judge.session import Grading, Progress, Stop
from judge.verdicts import Verdict

log = logging.getLogger(__name__)

START_S = 180.0  # a runner's start-up under a tool: torch's import, CUDA's start, injection
EXIT_S = 60.0  # for the tool to write its report once the runner has exited


class ToolRun:
    def __init__(
        self,
        problem: Problem,
        source: str,
        language: str,
        *,
        wrap: Sequence[str],
        read_only: Sequence[str] = (),
        env: dict[str, str] | None = None,
        budget_s: float,
        progress: Progress,
        runner: RunnerClient | None = None,
    ) -> None:
        """``runner``: one already started under the tool (profile/spare.py), in its own work
        folder, which this run then uses; without, ``start`` starts one."""
        self.problem = problem
        self.spare = runner
        if runner is not None:
            self.workdir = runner.workdir
        else:
            self.workdir = Path(tempfile.mkdtemp(prefix="kerneldojo-tool-"))
            self.workdir.chmod(0o777)
        self.session = Session(
            Grading(problem, source, language, "cuda", "run", progress, self.workdir)
        )
        self.session.g.deadline = time.monotonic() + budget_s
        self.wrap, self.read_only, self.env = list(wrap), tuple(read_only), dict(env or {})
        self.budget_s = budget_s
        self.exit_code: int | None = None
        self.buffers: list[buffers.SharedBuffer] = []

    @property
    def result(self) -> Any:
        return self.session.g.result

    def left(self) -> float:
        return max(1.0, self.session.g.deadline - time.monotonic())

    def start(self) -> None:
        """Prepare the source, start the runner under the tool, load the submission."""
        import torch

        s = self.session
        # The referee's own CUDA context: the case's buffers are allocated in it (buffers.py).
        torch.zeros(1, device="cuda")
        s.validate_source()
        lib = s.compile()
        if self.spare is not None:
            s.channel.runner = self.spare
            try:
                self.spare.wait_ready(min(START_S, self.left()))
            except (RunnerDied, RunnerTimeout) as e:
                # A spare whose start failed while it waited: this run starts its own, in the
                # same folder (which the spare's closing must then leave in place).
                log.warning("the spare runner under the tool did not start: %s", e)
                self.spare.owns_workdir = False
                self.spare.close()
                self.spare = s.channel.runner = None
        if s.channel.runner is None:
            self._start_own()
        s.load(lib)

    def _start_own(self) -> None:
        """A runner started now under the tool, with this run's own limits."""
        s = self.session
        limits = default_limits("cuda", self.problem.limits.host_memory_mb, int(self.budget_s) + 60)
        runner = s.channel.runner = RunnerClient(
            self.workdir,
            "cuda",
            limits,
            {**runner_env("cuda"), **self.env},
            wrap=self.wrap,
            read_only=self.read_only,
        )
        try:
            runner.wait_ready(min(START_S, self.left()))
        except (RunnerDied, RunnerTimeout) as e:
            raise Stop(
                Verdict.INTERNAL_ERROR, f"the runner did not start under the tool: {e}"
            ) from e

    def bind(
        self, case: Case, key: str, private: bool = False
    ) -> tuple[dict[str, buffers.SharedBuffer], dict[str, tuple[int, int]]]:
        """The case's buffers, shared with the runner; with ``private`` the runner works on
        exact-size copies of its own and says where they are (name -> (pointer, bytes))."""
        ch = self.session.channel
        bufs: dict[str, buffers.SharedBuffer] = {}
        for a in self.problem.args:
            if a.is_tensor:
                shape = self.problem.shape(a, case.params)
                bufs[a.name] = buffers.create(
                    shape, a.dtype, "cuda", self.workdir, f"{key}_{a.name}"
                )
                self.buffers.append(bufs[a.name])
        args = bind_args(self.problem, case, bufs)
        msg = ch.request(
            60.0, "binding", messages.Bind(op="bind", case=key, args=args, private=private)
        )
        ch.raise_if_error(msg)
        where: dict[str, tuple[int, int]] = {}
        got = msg.get("allocations")
        if isinstance(got, list) and len(got) == len(self.problem.args):
            for a, item in zip(self.problem.args, got, strict=True):
                if (
                    isinstance(item, list)
                    and len(item) == 2
                    and all(isinstance(v, int) and v >= 0 for v in item)
                ):
                    where[a.name] = (item[0], item[1])
        return bufs, where

    def run_case(
        self,
        case: Case,
        key: str,
        bufs: dict[str, buffers.SharedBuffer],
        *,
        nvtx: bool = False,
        tune: str = autotune.TUNE_FIRST,
    ) -> tuple[bool, str]:
        """Fresh inputs, one call, the outputs checked: (passed, message). A failure of the
        call itself raises Stop with its verdict, as in grading."""
        cases, ch = self.session.cases, self.session.channel
        inputs, expected, scales = cases.make_case(case)
        cases.fill(bufs, inputs)
        cases.sync()
        msg = ch.request(
            self.left(),
            "running",
            messages.Call(op="call", case=key, timed=False, tune=tune, nvtx=nvtx),
        )
        if msg.get("op") == "launched":
            msg = ch.recv(self.left(), "running")
        ch.done(msg)
        ok, message, _ = cases.check(bufs, expected, scales)
        return ok, message

    def finish(self) -> int | None:
        """Let the runner exit by itself (the tool writes its report then), within the budget."""
        runner = self.session.channel.runner
        if runner is None:
            return None
        with contextlib.suppress(RunnerDied):  # gone already: nothing more to wait for
            runner.send(messages.Exit(op="exit"))
        try:
            self.exit_code = runner.proc.popen.wait(timeout=min(EXIT_S, self.left()))
        except Exception:  # TimeoutExpired: close() kills the tree
            self.exit_code = None
        return self.exit_code

    def output(self) -> str:
        """The runner's log: the submission's prints and the tool's own lines."""
        runner = self.session.channel.runner
        return runner.output(256 << 10) if runner is not None else ""

    def close(self) -> None:
        if self.spare is not None and self.session.channel.runner is not self.spare:
            # Taken from the pool, but start() stopped before it became the session's runner
            # (a source that does not compile): nothing else would end its process.
            self.spare.close()
            self.spare = None
        self.session.close()  # the whole tree, tool included, before the buffers go
        for b in self.buffers:
            b.free()
        self.buffers = []
        shutil.rmtree(self.workdir, ignore_errors=True)
