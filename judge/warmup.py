"""Warming a GPU worker: each problem's editorial graded once before learners' submissions are.

The first grading of a problem in a worker process pays for what every later one reuses: the
problem's reference module, the first use on this GPU of the torch ops its ``generate`` and
``reference`` call (cuBLAS handles, float64 kernels), the referee's own helpers (L2 flusher,
holding kernel, clock probe), the torch baseline and the speed-of-light ceilings (both cached per
GPU, timing.cache_file), and the harness's kernels in the shared Triton cache. Measured on an H100
(benchmarks/README.md, 'Where grading time goes') that is 2.9 s for vector-add and 2.3 s for
flash-attention on top of a warm grading: a learner's first submission to a problem would miss
the latency target for no fault of theirs.

So a GPU worker grades every problem's editorial (``solutions/accepted/triton_fast.py``, or the
problem's first accepted Triton sample) once, in ``submit`` mode, through the same runner pool
and code path as a learner's submission, before it is warm. It does so in the background and
yields: between two problems it waits while any learner's grading is pending or running, so a
learner who submits during warm-up waits for at most the one editorial being graded.

``KERNELDOJO_WARM=0`` turns it off (a worker that serves one problem, or a test).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from judge.problem import loader
from judge.problem.schema import Problem
from judge.verdicts import Verdict

log = logging.getLogger(__name__)

EDITORIAL = "triton_fast.py"


def enabled() -> bool:
    return os.environ.get("KERNELDOJO_WARM", "1").strip().lower() not in ("0", "false", "no", "")


def editorial(problem: Problem) -> Path | None:
    """The sample a worker warms a problem with: its fast Triton editorial, or any accepted one."""
    accepted = [
        s for s in problem.samples if s.language == "triton" and s.expected == Verdict.ACCEPTED
    ]
    for s in accepted:
        if s.path.name == EDITORIAL:
            return s.path
    return accepted[0].path if accepted else None


class Gate:
    """Warm-up and learners' gradings take turns; learners go first.

    A grading holds the gate for its whole length; warm-up takes it one problem at a time and
    only while no grading is waiting for it."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._busy = False
        self._waiting = 0  # learners' gradings waiting for the gate

    def grading(self) -> _Turn:
        return _Turn(self, learner=True)

    def warming(self) -> _Turn:
        return _Turn(self, learner=False)

    def _enter(self, learner: bool) -> None:
        with self._cond:
            if learner:
                self._waiting += 1
            try:
                while self._busy or (not learner and self._waiting):
                    self._cond.wait()
            finally:
                if learner:
                    self._waiting -= 1
            self._busy = True

    def _leave(self) -> None:
        with self._cond:
            self._busy = False
            self._cond.notify_all()


class _Turn:
    def __init__(self, gate: Gate, learner: bool) -> None:
        self.gate, self.learner = gate, learner

    def __enter__(self) -> None:
        self.gate._enter(self.learner)

    def __exit__(self, *exc: object) -> None:
        self.gate._leave()


def warm(
    grade: Callable[[Problem, str], str],
    gate: Gate,
    only: list[str] | None = None,
) -> dict[str, dict[str, object]]:
    """Grade each problem's editorial once with ``grade(problem, source) -> verdict``.

    Returns, per problem slug, the seconds it took and the verdict (or why it was skipped). A
    problem that fails to load or to grade is logged and skipped: warm-up never stops a worker."""
    report = loader.load_all()
    done: dict[str, dict[str, object]] = {}
    for problem in report.problems:
        if only is not None and problem.slug not in only:
            continue
        path = editorial(problem)
        if path is None:
            done[problem.slug] = {"skipped": "no accepted Triton sample"}
            continue
        with gate.warming():
            t0 = time.monotonic()
            try:
                verdict = grade(problem, path.read_text())
            except Exception as e:  # a bug of ours or a broken folder: the worker serves anyway
                log.exception("warming %s failed", problem.slug)
                done[problem.slug] = {"error": f"{type(e).__name__}: {e}"}
                continue
            done[problem.slug] = {"s": round(time.monotonic() - t0, 3), "verdict": verdict}
        if verdict != str(Verdict.ACCEPTED):
            log.warning("warming %s: its editorial got %s", problem.slug, verdict)
    log.info("worker warm: %s", done)
    return done


def start(grade: Callable[[Problem, str], str], gate: Gate) -> threading.Thread:
    """``warm`` in a daemon thread (a worker starts serving at once; learners go first)."""
    t = threading.Thread(target=warm, args=(grade, gate), name="kerneldojo-warmup", daemon=True)
    t.start()
    return t
