"""Waiting for a CPU: the part of a CPU-device limit that the machine's other work took.

On the CPU device a runner's limits are wall-clock limits on Triton's interpreter, which keeps a
core busy the whole call. On a loaded machine (a shared CI host, the check's own shards, a class
server grading beside other work) the runner spends part of each call ready to run but not
running, and a call that takes 4 s on an idle core ran past its 10 s limit (issue #42). Linux
counts that time per task: the second field of ``/proc/<pid>/task/<tid>/schedstat``, the
nanoseconds a task spent on a run queue, waiting for a CPU. The referee reads it from outside the
sandbox, where the submission cannot write it, and a limit runs on by the wait it finds
(``Clock.grant``): the limit then counts what the runner ran and what it slept, as on an idle
machine. A sleeping hang is not waiting for a CPU, and a spinning one on an idle machine gets its
core: both still end at the limit.

The wait of a tree is the sum of its tasks' waits: they often wait one after the other (the
interpreter's thread, then the ptxas it starts and waits for: under load the longest single wait
was half of the sum, and a call timed out). The submission owns its processes, so what it can do
to its own wait is bounded (``waited``):

* no more than the machine's other work explains: the CPU time that processes other than the
  runner's and this (the referee's) took on the referee's CPUs, over their number. A submission
  whose threads outnumber the cores waits on itself, and that wait counts against its limit; on
  an idle machine nothing is added, however many threads wait;
* at most ``MAX_STRETCH`` times the limit in all.

Still counted against a limit: time a hypervisor steals from a virtual machine (the task looks as
if it ran), and in a container whose CPU quota (cgroup ``cpu.max``) is below the CPUs it may run
on, most of the wait (the bound spreads the other work over every CPU of the affinity).
What the credit misses (a CPU quota's throttling, a runner stopped or preempted beyond the
bound) can still end a limit before the runner had its time. So a time-out keeps the CPU time
the tree got during the limit (``Clock.ran``), and grader.py grades once more, once, where that
was under half the limit: a submission that spins used its time and is not graded again.
Only the CPU device uses this: on a GPU the limits and their messages are as they were.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass

log = logging.getLogger(__name__)

# A limit counts at most this many times its length in wall-clock time: a machine 8 times
# over-committed still grades as an idle one would (a runner's tasks then get an eighth of a
# core), and a hang that waits on a loaded machine is ended within 8 times its limit.
MAX_STRETCH = 8.0
# Smaller grants are not worth another round of reading /proc: the limit has run out.
MIN_GRANT_S = 0.05
# How often a running limit reads the tree (~0.5 ms a time): a process that starts and exits
# between two readings takes its wait with it.
SAMPLE_S = 0.25
# A time-out names the wait it did not count from this much on (an idle machine's few
# milliseconds would only puzzle the learner).
NOTE_S = 0.5

_TICK_S = 1.0 / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Reading:
    """One look at the runner's tasks and the machine, from outside the sandbox."""

    waits: dict[int, int]  # per task id of the runner's tree: ns spent waiting for a CPU
    tree_ticks: int  # the tree's CPU time (its live threads', its exited ones', reaped children's)
    busy_ticks: int  # CPU time of everything on the referee's CPUs (idle, I/O wait, steal: not)
    own_s: float  # the referee process's own CPU time


def _tree_stats(pids: Iterable[int]) -> tuple[dict[int, int], int]:
    waits: dict[int, int] = {}
    ticks = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
            # after "pid (comm) ": state is field 3; utime, stime, cutime, cstime are 14-17
            ticks += sum(int(x) for x in stat[stat.rindex(b")") + 2 :].split()[11:15])
            tids = os.listdir(f"/proc/{pid}/task")
        except (OSError, ValueError):
            continue  # gone meanwhile, or /proc hides it: its wait is not counted
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat", "rb") as f:
                    waits[int(tid)] = int(f.read().split()[1])
            except (OSError, ValueError, IndexError):
                continue
    return waits, ticks


def _busy_ticks(cpus: set[int]) -> int:
    """User, nice, system, irq and softirq ticks of ``cpus`` (guest time is within user)."""
    busy = 0
    try:
        with open("/proc/stat", "rb") as f:
            lines = f.read().splitlines()
    except OSError:
        return 0
    for line in lines:
        if not line.startswith(b"cpu") or line[3:4] == b" ":
            continue
        name, *fields = line.split()
        try:
            if int(name[3:]) in cpus:
                user, nice, system, _idle, _iowait, irq, softirq = (int(x) for x in fields[:7])
                busy += user + nice + system + irq + softirq
        except ValueError:
            continue
    return busy


def read(pids: Iterable[int], cpus: set[int]) -> Reading:
    waits, ticks = _tree_stats(pids)
    t = os.times()
    return Reading(waits, ticks, _busy_ticks(cpus), t.user + t.system)


class Clock:
    """The wait for a CPU of one process tree since the clock was made (a runner's, for one
    limit): ``waited``, and the limit's extension, ``grant``. A task's wait vanishes from /proc
    when it exits, so the clock remembers each task's last reading; ``sample`` every
    ``SAMPLE_S`` while the limit runs keeps the waits of short-lived processes (a ptxas run)."""

    def __init__(self, tree: Callable[[], list[int]]) -> None:
        self.tree = tree
        self.cpus = os.sched_getaffinity(0)
        self.start = self.latest = read(tree(), self.cpus)
        # per task id: (its wait when first seen, or 0 if it started since; its last wait seen)
        self.tasks = {tid: (w, w) for tid, w in self.start.waits.items()}
        self.gone_ns = 0  # the waits of tasks whose id a later task took
        self.granted = 0.0  # what ``grant`` has handed out

    def sample(self) -> None:
        self.latest = read(self.tree(), self.cpus)
        for tid, w in self.latest.waits.items():
            first, last = self.tasks.get(tid, (0, 0))
            if w < last:  # an exited task's id, taken by a new task
                self.gone_ns += last - first
                first = 0
            self.tasks[tid] = (first, w)

    def waited(self) -> float:
        """Seconds the tree waited for a CPU since the clock started, bounded as the module
        docstring says (but not by ``MAX_STRETCH``)."""
        self.sample()
        now, start = self.latest, self.start
        wait_ns = self.gone_ns + sum(last - first for first, last in self.tasks.values())
        others_s = (
            (now.busy_ticks - start.busy_ticks) - (now.tree_ticks - start.tree_ticks)
        ) * _TICK_S - (now.own_s - start.own_s)
        return max(0.0, min(wait_ns / 1e9, others_s / max(1, len(self.cpus))))

    def ran(self) -> float:
        """Seconds of CPU the tree used between the clock's start and its latest reading (its
        processes' and threads', and those of children it reaped meanwhile): what a limit that
        ran out gave it, read from /proc outside the sandbox (grader.py's confirmation)."""
        return max(0, self.latest.tree_ticks - self.start.tree_ticks) * _TICK_S

    def grant(self, limit_s: float) -> float:
        """More time for a limit of ``limit_s`` that has just run out: the wait found beyond
        what was granted before, within ``MAX_STRETCH``; 0.0 when there is none to speak of
        (the limit is over)."""
        credit = min(self.waited(), (MAX_STRETCH - 1.0) * limit_s)
        more = credit - self.granted
        if more < MIN_GRANT_S:
            return 0.0
        self.granted = credit
        log.debug("a limit of %.1f s runs on by %.2f s waited for a CPU", limit_s, more)
        return more


def note(waited_s: float) -> str:
    """What a time-out's message adds about the wait it did not count ("" when little)."""
    if waited_s < NOTE_S:
        return ""
    return (
        f" (not counting {waited_s:.1f} s spent waiting for a CPU while the machine was busy "
        "with other work)"
    )
