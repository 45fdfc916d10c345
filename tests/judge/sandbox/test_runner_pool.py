"""The warm runner pool: spares import ahead of demand, start their device only when told,
and used runners are reaped in the background (CPU runners: the protocol is the same)."""

from __future__ import annotations

import os
import threading
import time
import types
from typing import cast

import pytest

from judge import grader
from judge.problem import loader
from judge.sandbox.runner_client import RunnerClient, RunnerPool, RunnerTimeout
from judge.verdicts import Verdict

START_S = 180.0


def _wait_imported(pool: RunnerPool) -> None:
    client = pool._ready[0]
    deadline = time.monotonic() + START_S
    while not client.poll_imported():
        assert time.monotonic() < deadline, "the spare runner never finished its imports"
        time.sleep(0.1)


def test_a_spare_runner_waits_for_init_before_starting_its_device() -> None:
    pool = RunnerPool("cpu", size=1)
    try:
        client = pool._ready[0]
        # Not told to start: settling without warming neither sends init nor waits.
        t0 = time.monotonic()
        pool.settle(START_S, warm=False)
        assert time.monotonic() - t0 < 1.0
        assert not client.init_sent
        _wait_imported(pool)
        with pytest.raises(RunnerTimeout):  # imported, and idle until told
            client.recv(0.5)
        assert not client.ready
        pool.warm()
        assert client.init_sent
        pool.settle(START_S, warm=False)  # now it waits: this runner is starting its device
        assert client.ready
    finally:
        pool.close()


def test_a_pooled_grading_leaves_a_spare_and_no_process_of_the_used_runner() -> None:
    pool = RunnerPool("cpu", size=1)
    try:
        pool.settle(START_S)
        used = pool._ready[0]
        p = loader.resolve("vector-add")
        sample = next(s for s in p.samples if s.path.name == "triton_simple.py")
        res = grader.grade(
            p, sample.path.read_text(), "triton", device="cpu", mode="run", pool=pool
        )
        assert res.verdict == Verdict.ACCEPTED, res.message
        assert res.phases["sandbox_start"] < 1.0  # the runner was ready before the submission
        assert len(pool._ready) == 1 and pool._ready[0] is not used
        pool.reap(START_S)
        assert used.proc.popen.poll() is not None
        assert not os.path.exists(f"/proc/{used.proc.pid}")
        assert not used.workdir.exists()
    finally:
        pool.close()


def test_the_idle_warmer_starts_a_spare_only_between_gradings() -> None:
    """The GPU pool's idle thread's round (warm_if_idle), called by hand on a CPU pool:
    while a grading holds a runner, a spare that finished importing is left alone; once the
    grading is done, it is told to start its device."""
    pool = RunnerPool("cpu", size=1)
    try:
        used = pool.acquire()  # a grading starts; its replacement imports meanwhile
        pool.refilled()
        spare = pool._ready[0]
        _wait_imported(pool)
        pool.warm_if_idle()  # the idle thread's round (a GPU pool's thread calls it)
        assert not spare.init_sent
        pool.retire(used)
        pool.done()
        assert pool._busy == 0 and spare.init_sent
        pool.done()  # a stray second call never goes below zero
        assert pool._busy == 0
    finally:
        pool.close()


def test_late_in_an_idle_spell_only_the_next_runner_starts_its_device() -> None:
    """A device start begun just before a submission arrives delays its calibration: from
    0.5 s to 3 s after a grading only the runner handed out next starts; the rest start when a
    grading ends, or after a longer idle spell."""
    pool = RunnerPool("cpu", size=2)
    try:
        first, second = pool._ready
        deadline = time.monotonic() + START_S
        while not (first.poll_imported() and second.poll_imported()):
            assert time.monotonic() < deadline, "the spare runners never finished importing"
            time.sleep(0.1)
        pool._idle_since = time.monotonic() - 1.0  # the last grading ended a second ago
        pool.warm_if_idle()
        assert first.init_sent and not second.init_sent
        pool.warm_if_idle()
        assert not second.init_sent
        pool._idle_since = time.monotonic() - 60  # a minute of idling: any may start
        pool.warm_if_idle()
        assert second.init_sent
    finally:
        pool.close()


def test_the_replacement_is_spawned_off_the_submissions_path() -> None:
    """acquire() hands over a runner without waiting for its replacement's process to start;
    the replacement arrives in the background without holding the pool's lock (a settle is not
    held up by it), and none is kept once the pool is closed."""
    pool = RunnerPool("cpu", size=1)
    spawn = pool._spawn
    gate = threading.Event()

    def slow_spawn() -> RunnerClient:
        assert gate.wait(START_S)
        return spawn()

    pool._spawn = slow_spawn  # type: ignore[method-assign]
    try:
        used = pool.acquire()
        assert used.proc.popen.poll() is None and not pool._ready  # handed over, none yet
        # the grading settles the pool while the replacement is being spawned: no lock held
        settling = threading.Thread(target=pool.settle, args=(START_S, False))
        settling.start()
        settling.join(5.0)
        assert not settling.is_alive()
        gate.set()
        pool.refilled(START_S)
        assert len(pool._ready) == 1 and pool._ready[0] is not used
        pool.retire(used)
        pool.done()
        gate.clear()
        second = pool.acquire()
        pool.close()  # closed while the replacement waits to be spawned
        gate.set()
        pool.refilled(START_S)
        assert not pool._ready
        second.close()
    finally:
        gate.set()
        pool.close()


class _FakeRunner:
    """Stands for a runner's process where only the pool's bookkeeping is under test."""

    def __init__(self, alive: bool = True) -> None:
        self.closed = False
        self.proc = types.SimpleNamespace(
            popen=types.SimpleNamespace(poll=lambda: None if alive else 1)
        )

    def close(self) -> None:
        self.closed = True


def test_a_failed_spawn_in_the_refill_loses_none_of_those_already_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two replacements due, the second's spawn fails (EAGAIN, a full disk): the first, whose
    process is running, is kept in the pool rather than left running with no one to close it."""
    dead, alive, first = _FakeRunner(alive=False), _FakeRunner(), _FakeRunner()
    outcomes: list[_FakeRunner | OSError] = [dead, alive, first, OSError("fork failed")]

    def spawn(self: RunnerPool) -> _FakeRunner:
        out = outcomes.pop(0)
        if isinstance(out, OSError):
            raise out
        return out

    monkeypatch.setattr(RunnerPool, "_spawn", spawn)
    pool = RunnerPool("cpu", size=2)
    try:
        assert pool.acquire() is cast(
            object, alive
        )  # the dead one is dropped: two replacements due
        pool.refilled(START_S)
        assert not outcomes
        assert list(pool._ready) == [cast(RunnerClient, first)] or first.closed, (
            "a started runner was lost"
        )
    finally:
        pool.close()
