"""The referee's conversation with one runner: requests, replies, and what they mean.

Every reply is untrusted (the submission shares the runner's process and its pipe): a time-out,
a death or an error reply becomes a ``Stop`` with its verdict here, a reply out of order is
tampering, and the runner's progress counts are bounded before the learner sees them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from judge.sandbox import cpuwait, gpumem, ledger, messages
from judge.sandbox.runner_client import RunnerClient, RunnerDied, RunnerTimeout
from judge.session import Grading, Stop
from judge.timing import gate
from judge.verdicts import Verdict

log = logging.getLogger(__name__)


def count(value: Any) -> int:
    """A small non-negative count from the runner, or 0."""
    return (
        value
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**6
        else 0
    )


class Channel:
    def __init__(self, g: Grading) -> None:
        self.g = g
        self.runner: RunnerClient | None = None
        self.gate: gate.RefereeGate | None = None  # calibration.py opens it
        self.meter: gpumem.Meter | None = None
        self.activity: dict[str, Any] | None = None  # progress event that runner counts refine
        self.detail_at = 0.0
        self.waited_s = 0.0  # the last reply's wait for a CPU that its limit did not count
        self.owns: Callable[[str], bool] | None = None  # the kernel ledger's judge, once armed

    def arm_ledger(self, owns: Callable[[str], bool] | None) -> None:
        """From now on (the submission's load), every reply is checked against the kernels the
        runner launched meanwhile (ledger.py). What came before was the judge's own start-up."""
        runner = self.runner
        if runner is None or runner.ledger is None:
            return
        status = runner.ledger.take().status
        self.g.result.phases["ledger"] = int(bool(status and status.startswith("ok")))
        if status is None or not status.startswith("ok"):
            log.warning("kernel ledger off in this runner: %s", status or runner.ledger_why)
            return
        self.owns = owns

    def _audit(self) -> None:
        if self.owns is None or self.runner is None or self.runner.ledger is None:
            return
        entries = self.runner.ledger.take()
        if entries.names:
            log.debug("kernel ledger: %s", entries.names)
        if entries.unnamed:
            key = "ledger_unnamed"
            self.g.result.phases[key] = self.g.result.phases.get(key, 0) + entries.unnamed
        why = ledger.refusal(entries, self.owns)
        if why is not None:
            raise Stop(Verdict.REJECTED, why)

    def request(
        self, timeout_s: float, what: str, msg: messages.Request, thaw_last: bool = False
    ) -> messages.Received:
        assert self.runner is not None
        try:
            self.runner.send(msg, thaw_last=thaw_last)
        except RunnerDied as e:
            raise Stop(Verdict.RUNTIME_ERROR, f"while {what}: {e.message}") from e
        return self.recv(timeout_s, what)

    def recv(self, timeout_s: float, what: str) -> messages.Received:
        """The runner's next reply (progress reports taken on the way) within ``timeout_s``; on
        the CPU device, plus the time the runner waited for a CPU meanwhile (cpuwait.py)."""
        assert self.runner is not None
        problem = self.g.problem
        end = time.monotonic() + timeout_s
        clock = cpuwait.Clock(self.runner.proc.tree) if self.g.dev == "cpu" else None
        try:
            while True:
                left = end - time.monotonic()
                try:
                    msg = self.runner.recv(
                        max(0.0, left if clock is None else min(left, cpuwait.SAMPLE_S))
                    )
                except RunnerTimeout:
                    if clock is None:
                        raise
                    if time.monotonic() < end:
                        clock.sample()
                        continue
                    more = clock.grant(timeout_s)
                    if more <= 0.0:
                        raise
                    end += more
                    continue
                if msg.get("op") != "progress":
                    break
                self._runner_progress(msg)
        except RunnerTimeout as e:
            waited = self._credit(clock, timeout_s, ran_out=True)
            if clock is not None:  # the clock's latest reading is as the limit ran out (grant)
                self.g.timed_out = (clock.ran(), timeout_s)
            if what == "compiling":
                raise Stop(
                    Verdict.TIME_LIMIT_EXCEEDED,
                    f"compiling the kernels took longer than the compile limit "
                    f"({problem.limits.compile_s:.0f} s){cpuwait.note(waited)}",
                ) from e
            verdict = (
                Verdict.TIME_LIMIT_EXCEEDED
                if what in ("running", "loading")
                else Verdict.INTERNAL_ERROR
            )
            if what == "running" and time.monotonic() >= self.g.deadline:
                raise Stop(
                    verdict,
                    f"the whole grading took longer than {problem.limits.total_s:.0f} s"
                    f"{cpuwait.note(self.g.cpu_waited_s)}",
                ) from e
            raise Stop(
                verdict, f"no answer after {timeout_s:.1f} s while {what}{cpuwait.note(waited)}"
            ) from e
        except RunnerDied as e:
            self._credit(clock, timeout_s)
            verdict = Verdict.RUNTIME_ERROR
            if "SIGXCPU" in e.message or (
                "SIGKILL" in e.message and time.monotonic() >= self.g.deadline
            ):
                verdict = Verdict.TIME_LIMIT_EXCEEDED
            if what == "starting":
                verdict = Verdict.INTERNAL_ERROR
            raise Stop(verdict, f"while {what}: {e.message}") from e
        self._credit(clock, timeout_s)
        self._audit()  # the kernels launched before this reply are in the ledger already
        return msg

    def _credit(
        self, clock: cpuwait.Clock | None, timeout_s: float, ran_out: bool = False
    ) -> float:
        """The wait for a CPU that the limit of this reply did not count: the whole grading's
        deadline moves on by it too (``Grading.waited_for_cpu``). ``ran_out``: the limit has
        just run out, so its last grant is the wait (no need to read /proc again)."""
        self.waited_s = 0.0
        if clock is None:
            return 0.0
        if ran_out:
            waited = clock.granted
        else:
            waited = max(clock.granted, min(clock.waited(), (cpuwait.MAX_STRETCH - 1) * timeout_s))
        self.g.waited_for_cpu(waited)
        self.waited_s = waited
        return waited

    def _runner_progress(self, msg: messages.Received) -> None:
        """ "compiling kernel i of n" or "tuning config i of n" from the runner: untrusted, so
        only two small counts are taken from it, and only while something is under way."""
        if self.activity is None:
            return
        done, total = count(msg.get("done")), count(msg.get("total"))
        word = "tuning config" if msg.get("kind") == "tune" else "compiling kernel"
        now = time.monotonic()
        # At most two a second (each is a database write in the worker), and the last one.
        if 0 < done <= total and (done == total or now - self.detail_at >= 0.5):
            self.detail_at = now
            self.g.progress({**self.activity, "detail": f"{word} {done} of {total}"})

    def raise_if_error(self, msg: messages.Received) -> None:
        if msg.get("op") == "error":
            said: Any = msg.get("verdict", "runtime_error")  # any JSON value: checked here
            try:
                verdict = Verdict(said)
            except ValueError:
                verdict = Verdict.RUNTIME_ERROR
            if verdict == Verdict.ACCEPTED:  # the runner cannot grant a verdict
                verdict = Verdict.RUNTIME_ERROR
            raise Stop(verdict, str(msg.get("message", ""))[:8000])

    def done(self, msg: messages.Received) -> messages.Received:
        """The runner's final reply to a call, which must be "done"."""
        self.raise_if_error(msg)
        if msg.get("op") != "done":
            # Only the submission can put the runner's protocol out of step (its process writes
            # on the control pipe): that is tampering with the harness, not a judge failure.
            raise Stop(
                Verdict.REJECTED,
                "the runner's replies were out of order: the submission interfered with the harness",
            )
        return msg

    def gated(
        self,
        timeout_s: float,
        what: str,
        msg: messages.Ping | messages.Call,
        probe: Callable[[], Any] | None = None,
    ) -> tuple[messages.Received, float | None, float]:
        """One call through the gate (gate.py), the runner thawed once it is sent: (the runner's
        last reply, the referee's bracket in ms or None if the runner never closed the gate, the
        host ms from the thaw to "launched"). ``probe`` runs on the gate's stream right after
        its end event: it sees the outputs as they were when the referee's clock stopped."""
        assert self.runner is not None and self.gate is not None
        msg["gate"] = self.gate.next_call()
        t = time.perf_counter()
        try:
            reply = self.request(timeout_s, what, msg, thaw_last=True)
            launch = (time.perf_counter() - t) * 1e3
            if reply.get("op") != "launched":
                return reply, None, launch
            self.gate.launched(probe)
            reply = self.recv(timeout_s, what)
            return reply, self.gate.finish(timeout_s), launch
        finally:
            self.gate.finish(0.0)  # never leave the gate's stream waiting for the runner

    def check_memory(self, when: str) -> None:
        """memory_limit_exceeded if the runner holds more GPU memory than the budget (gpumem.py)."""
        if self.meter is None or self.runner is None:
            return
        extra = self.meter.extra_bytes(self.runner.proc.tree()) >> 20
        budget = self.g.problem.gpu_budget_mb()
        if extra > budget:
            raise Stop(
                Verdict.MEMORY_LIMIT_EXCEEDED,
                f"the submission held {extra} MiB of GPU memory {when}; this problem allows "
                f"{budget} MiB of scratch beyond the judge's buffers (free what you allocate, or "
                "allocate less). Kernels count too: one whose registers spill has local memory "
                "reserved for every thread the GPU can hold (a whole 65 536-wide row in one "
                "block spills gigabytes); loop over such rows in chunks",
            )

    def close(self) -> None:
        if self.runner is not None:
            self.runner.close()
