"""On the CPU device a limit does not count the time a runner waited for a CPU (cpuwait.py).

The live tests run a stand-in runner in the sandbox, answering on a pipe as a runner does, and
time it out through the referee's ``Channel.recv``: starved by burners (processes that only spin,
one more than three per core), it gets its answer in although the wall clock ran well past the
limit; a runner that sleeps, or spins with its core to itself, is timed out at the limit. The
bounds on what a submission can do to its own wait are checked on made-up readings.
"""

from __future__ import annotations

import dataclasses
import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from judge import grader
from judge.problem import loader
from judge.sandbox import bubblewrap, cpuwait
from judge.sandbox.channel import Channel
from judge.sandbox.runner_client import RunnerDied, RunnerTimeout
from judge.session import Grading, Stop
from judge.verdicts import Verdict

CORES = len(os.sched_getaffinity(0))
# Half a second of work in a child process it waits for (as the interpreter waits for ptxas:
# the child's wait leaves /proc with it), half a second more of its own, then the answer "done".
WORK = """
import subprocess, sys, time
subprocess.run([sys.executable, "-c", "import time\\nwhile time.process_time() < 0.5: pass"])
while time.process_time() < 0.5:
    pass
sys.stdout.write('{"op": "done"}\\n'); sys.stdout.flush()
time.sleep(60)
"""
SLEEP = "import time; time.sleep(60)"
SPIN = "while True: pass"


class StandIn:
    """A sandboxed process that answers on its stdout: what ``Channel.recv`` needs of a runner
    (``recv`` and ``proc.tree``)."""

    def __init__(self, script: str, workdir: Path) -> None:
        self._r, w = os.pipe()
        policy = bubblewrap.Policy(workdir=workdir, limits=bubblewrap.Limits(cpu_s=120))
        try:
            self.proc = bubblewrap.Process([sys.executable, "-c", script], policy, stdout=w)
        finally:
            os.close(w)

    def recv(self, timeout_s: float) -> Any:
        r, _, _ = select.select([self._r], [], [], timeout_s)
        if not r:
            raise RunnerTimeout()
        line = os.read(self._r, 1 << 16)
        if not line:
            raise RunnerDied("the stand-in exited")
        return json.loads(line)

    def close(self) -> None:
        self.proc.kill()
        os.close(self._r)


@pytest.fixture
def channel(tmp_path: Path) -> Iterator[Channel]:
    problem = loader.resolve("vector-add")
    problem = dataclasses.replace(problem, limits=dataclasses.replace(problem.limits, total_s=60))
    ch = Channel(Grading(problem, "", "triton", "cpu", "run", lambda e: None, tmp_path))
    yield ch
    if ch.runner is not None:
        ch.runner.close()


@pytest.fixture
def burners() -> Iterator[None]:
    """Every core busy three times over (and once more): a runner gets a quarter of a core."""
    procs = [
        # each its own session: with autogroup scheduling, each then weighs as much as the runner
        subprocess.Popen([sys.executable, "-c", SPIN], start_new_session=True)
        for _ in range(3 * CORES + 1)
    ]
    time.sleep(0.3)
    yield
    for p in procs:
        p.kill()
    for p in procs:
        p.wait()


def _start(ch: Channel, script: str) -> None:
    ch.runner = StandIn(script, ch.g.workdir)  # type: ignore[assignment]


def _timed_recv(ch: Channel, limit_s: float) -> tuple[float, Any]:
    t0 = time.monotonic()
    try:
        got: Any = ch.recv(limit_s, "running")
    except Stop as e:
        got = e
    return time.monotonic() - t0, got


@pytest.mark.timeout(120)
def test_a_starved_runner_is_not_timed_out(channel: Channel, burners: None) -> None:
    """1 s of work (half of it in a child process), a 2 s limit, a quarter of a core: the wall
    clock runs past the limit and the answer still counts, its wait for a CPU not counted."""
    _start(channel, WORK)
    elapsed, got = _timed_recv(channel, 2.0)
    assert not isinstance(got, Stop), got.message
    assert got == {"op": "done"}
    assert elapsed > 2.0, "the burners did not starve the runner: nothing was shown"
    assert channel.waited_s > elapsed - 2.0 - 0.5
    assert channel.g.cpu_waited_s == channel.waited_s  # the whole grading's deadline moved too


@pytest.mark.timeout(120)
def test_a_sleeping_runner_times_out_at_the_limit(channel: Channel, burners: None) -> None:
    """Sleeping is not waiting for a CPU: on the same loaded machine, the limit holds."""
    _start(channel, SLEEP)
    time.sleep(0.5)  # started (its start-up's wait is not this limit's)
    elapsed, got = _timed_recv(channel, 1.0)
    assert isinstance(got, Stop) and got.verdict == Verdict.TIME_LIMIT_EXCEEDED
    assert got.message == "no answer after 1.0 s while running"
    assert elapsed < 1.5


@pytest.mark.timeout(120)
def test_a_spinning_runner_times_out_at_the_limit_plus_its_wait(channel: Channel) -> None:
    """A hang that spins gets its core and ends at the limit; the little it waited for a CPU on
    this machine (other work, if any) is all that is added."""
    _start(channel, SPIN)
    time.sleep(0.5)
    elapsed, got = _timed_recv(channel, 1.0)
    assert isinstance(got, Stop) and got.verdict == Verdict.TIME_LIMIT_EXCEEDED
    assert got.message.startswith("no answer after 1.0 s while running")
    assert 1.0 <= elapsed < 1.0 + channel.waited_s + 0.5
    assert elapsed < cpuwait.MAX_STRETCH * 1.0 + 0.5


@pytest.mark.timeout(120)
def test_the_wait_is_read_from_outside_the_sandbox(channel: Channel, burners: None) -> None:
    """The referee reads every task of the sandboxed tree (bwrap, its init, the process), and a
    starved one shows its wait."""
    _start(channel, SPIN)
    assert channel.runner is not None
    time.sleep(0.5)
    tree = channel.runner.proc.tree()
    assert len(tree) >= 2 and len(cpuwait.read(tree, os.sched_getaffinity(0)).waits) >= len(tree)
    clock = cpuwait.Clock(channel.runner.proc.tree)
    time.sleep(1.0)
    assert clock.waited() > 0.3


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("script", "spins"), [(SPIN, True), (SLEEP, False)])
def test_a_time_out_keeps_the_cpu_time_its_runner_got(
    channel: Channel, script: str, spins: bool
) -> None:
    """What the grader confirms a time-out with (grader._starved): the CPU seconds the runner's
    tree got during the limit that ran out, read from /proc."""
    _start(channel, script)
    time.sleep(0.5)
    elapsed, got = _timed_recv(channel, 1.0)
    assert isinstance(got, Stop) and got.verdict == Verdict.TIME_LIMIT_EXCEEDED
    assert channel.g.timed_out is not None
    ran, limit = channel.g.timed_out
    assert limit == 1.0
    if spins:  # its core, all but its wait for it (which the limit ran on by): confirmed
        assert grader.CONFIRM_SHARE * limit <= ran <= elapsed + 0.05
    else:
        assert ran < 0.1


def _clock(monkeypatch: pytest.MonkeyPatch, *readings: cpuwait.Reading) -> cpuwait.Clock:
    seq = iter(readings)
    monkeypatch.setattr(cpuwait, "read", lambda pids, cpus: next(seq))
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    return cpuwait.Clock(lambda: [])


def _ticks(s: float) -> int:
    return round(s * os.sysconf("SC_CLK_TCK"))


def test_the_waits_of_its_tasks_add_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """A thread, then the compiler it waits for, then the thread again: their waits add up
    (a task that started meanwhile from nothing, one that exited no longer counted)."""
    start = cpuwait.Reading({1: 10**9, 2: 0, 4: 10**9}, 0, 0, 0.0)
    now = cpuwait.Reading({1: 4 * 10**9, 2: 2 * 10**9, 3: 10**9}, 0, _ticks(20.0), 0.0)
    assert _clock(monkeypatch, start, now).waited() == pytest.approx(6.0)


def test_the_wait_of_a_task_that_exited_still_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A compiler the runner started, seen waiting 2 s, then gone; its id taken later by
    another task that waited 1 s: 3 s in all, with the thread's own 1 s, 4 s."""
    busy = _ticks(100.0)
    clock = _clock(
        monkeypatch,
        cpuwait.Reading({1: 0}, 0, 0, 0.0),
        cpuwait.Reading({1: 10**9 // 2, 7: 2 * 10**9}, 0, busy, 0.0),
        cpuwait.Reading({1: 10**9}, 0, busy, 0.0),
        cpuwait.Reading({1: 10**9, 7: 10**9}, 0, busy, 0.0),
    )
    clock.sample()
    clock.sample()
    assert clock.waited() == pytest.approx(4.0)


def test_a_runner_that_waits_on_its_own_threads_gets_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three spinning threads on two idle cores: each waits a third of the time, but the CPUs
    were busy with the runner's own work only, so no wait is the machine's."""
    start = cpuwait.Reading({1: 0, 2: 0, 3: 0}, 0, 0, 0.0)
    wait = 10**9
    now = cpuwait.Reading({1: wait, 2: wait, 3: wait}, _ticks(6.0), _ticks(6.0), 0.0)
    assert _clock(monkeypatch, start, now).waited() == 0.0


def test_the_wait_counts_only_as_far_as_other_work_explains_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Over 10 s the others took 8 s of the two CPUs' 20: at most 4 s of the runner's wait
    can be theirs. The referee's own CPU time is not the others' either."""
    start = cpuwait.Reading({1: 0}, 0, 0, 1.0)
    now = cpuwait.Reading({1: 9 * 10**9}, _ticks(2.0), _ticks(11.0), 2.0)
    assert _clock(monkeypatch, start, now).waited() == pytest.approx(4.0)


def test_a_grant_is_what_is_new_and_stops_at_the_stretch(monkeypatch: pytest.MonkeyPatch) -> None:
    def at(wait_s: float) -> cpuwait.Reading:
        return cpuwait.Reading({1: int(wait_s * 1e9)}, 0, _ticks(4 * wait_s), 0.0)

    clock = _clock(monkeypatch, at(0), at(5.0), at(5.01), at(30.0), at(100.0))
    assert clock.grant(10.0) == pytest.approx(5.0)
    assert clock.grant(10.0) == 0.0  # 10 ms more: not worth another round, the limit is over
    assert clock.grant(10.0) == pytest.approx(25.0)
    assert clock.grant(10.0) == pytest.approx(70.0 - 30.0)  # at most 7 times the limit more
    assert clock.granted == pytest.approx((cpuwait.MAX_STRETCH - 1) * 10.0)


def test_the_whole_grading_moves_on_within_the_stretch(tmp_path: Path) -> None:
    g = Grading(loader.resolve("vector-add"), "", "triton", "cpu", "run", lambda e: None, tmp_path)
    deadline, total = g.deadline, g.problem.limits.total_s
    g.waited_for_cpu(5.0)
    assert g.deadline == pytest.approx(deadline + 5.0)
    g.waited_for_cpu(100 * total)
    assert g.deadline == pytest.approx(deadline + (cpuwait.MAX_STRETCH - 1) * total)


def test_a_note_only_for_a_wait_worth_telling() -> None:
    assert cpuwait.note(0.2) == ""
    assert "12.3 s spent waiting for a CPU" in cpuwait.note(12.34)
