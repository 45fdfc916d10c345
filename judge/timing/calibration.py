"""The referee's timing set-up on a GPU: its overheads, measured before any submission code
exists, and the clock waits of a benchmark case.

``calibrate`` opens the gate (gate.py) with the runner, takes the shared L2 flusher and clock
probe (measure.py, clock.py), and times empty calls through the same steps as a timed call;
bench.py takes its overheads off what it measures.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any

from judge.sandbox import messages
from judge.sandbox.channel import Channel
from judge.session import Grading, Stop
from judge.timing import clock, gate, measure
from judge.verdicts import Verdict

PING_COUNT = 12


class Settling:
    """The clock waits of one benchmark case (clock.py): bounded by ``clock.CASE_WAIT_S``."""

    def __init__(self) -> None:
        self.waited_s = 0.0
        self.waits = 0
        self.slow = 0
        self.readings: list[float] = []

    def left(self) -> float:
        return max(0.0, clock.CASE_WAIT_S - self.waited_s)

    def add(self, s: clock.Settled) -> None:
        self.readings.append(s.ghz)
        self.waited_s += s.waited_s
        self.waits += s.waited_s > 0
        self.slow += not s.ok

    def summary(self) -> dict[str, Any]:
        return {
            # The referee's reading just before each timed call, its median.
            "sm_ghz_before_calls": round(statistics.median(self.readings), 4)
            if self.readings
            else None,
            "clock_waits": self.waits,
            "clock_wait_s": round(self.waited_s, 3),
            # Calls let go with the clock still low (the waits ran out): timed as they were.
            "slow_clock_calls": self.slow,
        }


@dataclass
class Calibration:
    """What ``calibrate`` measured and set up (all empty before it, and on the CPU)."""

    overhead_ms: float = 0.0  # the referee's wall clock around an empty call
    gate_ms: float = 0.0  # the referee's bracket of an empty call (gate.py)
    flusher: measure.L2Flusher | None = None
    clock: clock.ClockProbe | None = None


def calibrate(g: Grading, ch: Channel) -> Calibration:
    """The referee's overheads for one timed call, measured before any submission code
    exists (so a submission cannot inflate them), through the same steps as a timed call —
    referee GPU work, thaw, a gated call that records events and synchronizes, freeze —
    minus the kernel: the wall clock's, the gate's bracket (gate.py) and the host time to
    "launched". They include the GPU's switches between the referee's and the runner's
    contexts."""
    import torch

    assert ch.runner is not None
    flusher = measure.L2Flusher.shared()
    cal = Calibration(flusher=flusher, clock=clock.ClockProbe.shared())
    ch.gate = gate.RefereeGate.shared()
    ch.raise_if_error(
        ch.request(10.0, "calibrating", messages.Gate(op="gate", desc=ch.gate.descriptor()))
    )
    walls, brackets, launches = [], [], []
    for _ in range(PING_COUNT):
        flusher.flush()
        torch.cuda.synchronize()
        t = time.perf_counter()
        _, bracket, launch = ch.gated(5.0, "calibrating", messages.Ping(op="ping"))
        walls.append((time.perf_counter() - t) * 1e3)
        ch.runner.freeze()
        if bracket is not None:
            brackets.append(bracket)
            launches.append(launch)
    ch.runner.thaw()
    if len(brackets) < PING_COUNT // 2:
        raise Stop(Verdict.INTERNAL_ERROR, "the GPU gate did not close on calibration calls")
    cal.overhead_ms = statistics.median(walls)
    cal.gate_ms = statistics.median(brackets)
    g.result.phases["gate_launch_ms"] = round(statistics.median(launches), 4)
    g.result.phases["clock_overhead_ms"] = round(cal.overhead_ms, 4)
    g.result.phases["gate_overhead_us"] = round(cal.gate_ms * 1e3, 1)
    return cal
