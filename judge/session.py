"""What the parts of one grading share: the problem, the submission, the result so far.

The referee's parts (channel.py: the runner conversation; cases.py: test cases; calibration.py
and bench.py: timing) each hold one ``Grading`` and add only their own state; grader.py
orchestrates them. ``Stop`` ends a grading early with a verdict, from any of them.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from judge import device, languages
from judge.problem.schema import Problem
from judge.results import GradeResult
from judge.sandbox import cpuwait
from judge.verdicts import Verdict

Progress = Callable[[dict[str, Any]], None]


class Stop(Exception):
    """Grading ends early with this verdict."""

    def __init__(self, verdict: Verdict, message: str) -> None:
        super().__init__(message)
        self.verdict = verdict
        self.message = message


class Grading:
    """One submission graded against one problem: its inputs, limits and result."""

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
        self.lang: languages.Language = languages.default()  # grader's validate_source sets it
        self.deadline = time.monotonic() + problem.limits.total_s
        self.cpu_waited_s = 0.0  # what the deadline moved on by (``waited_for_cpu``)
        # On the CPU device, a limit that ran out: (seconds of CPU the runner's tree got during
        # it, the limit), read by the referee from /proc (cpuwait.Clock.ran). grader.py grades
        # once more where it got well under its limit.
        self.timed_out: tuple[float, float] | None = None
        # False: the tests stop at the first failing case (a check of declared verdicts needs
        # no more; a learner is told how many cases failed).
        self.all_cases = True

    def phase(self, name: str, t0: float) -> None:
        self.result.phases[name] = round(
            self.result.phases.get(name, 0.0) + time.monotonic() - t0, 4
        )

    @contextlib.contextmanager
    def timed(self, name: str) -> Iterator[None]:
        """Adds the time of the block to phase ``name`` (a phase may be timed several times)."""
        t0 = time.monotonic()
        try:
            yield
        finally:
            self.phase(name, t0)

    def waited_for_cpu(self, seconds: float) -> None:
        """On the CPU device, a runner waited ``seconds`` for a CPU that its limit did not count
        (sandbox/cpuwait.py): the whole grading's deadline moves on by as much, within
        ``cpuwait.MAX_STRETCH`` times ``total_s``."""
        cap = (cpuwait.MAX_STRETCH - 1.0) * self.problem.limits.total_s
        more = min(seconds, cap - self.cpu_waited_s)
        if more > 0.0:
            self.cpu_waited_s += more
            self.deadline += more

    def left(self, limit: float) -> float:
        """``limit``, or less where the whole grading's time runs out first (never under 1 s)."""
        return min(limit, max(1.0, self.deadline - time.monotonic()))
