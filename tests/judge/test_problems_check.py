"""Every sample solution of every problem gets its declared verdict under the CPU interpreter.

One ``problems check --device cpu --jobs 0 --json`` grades them all, one shard process per core,
and streams a row per sample; each sample is a test that waits for its row. The check starts as
soon as the run is collected (tests/conftest.py), so it grades while the rest of the suite runs,
and its tests come last: most of the suite waits on servers, browsers and subprocesses, and the
cores it leaves idle grade samples meanwhile. The tests come in
the order the shards produce rows, taking the shards in turn, so a test waits for one grading
(its own), never for the whole check: no timeout covers the whole check, which on a machine
several times slower than usual only takes that much longer. A test's timeout is the judge's
own bound on one grading (``grading_bound_s``), which its limits reach first.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from judge import problem_check
from judge.problem import loader
from judge.problem.schema import Problem
from judge.sandbox import cpuwait

ROOT = Path(__file__).resolve().parents[2]
CHECK = [sys.executable, "-m", "worker.cli", "problems", "check"]
CORE = {"vector-add", "reduction", "softmax", "matmul", "flash-attention"}
Key = tuple[str, str, str]  # problem, folder (accepted/rejected), sample file


def grading_bound_s(p: Problem) -> int:
    """The longest one grading of ``p`` can take on the CPU: its compile, the runner's start
    (up to 120 s), and the whole grading's limit stretched by every wait for a CPU it may leave
    out (cpuwait.py); plus a minute for the check's own start."""
    return int(p.limits.compile_s + 120 + cpuwait.MAX_STRETCH * p.limits.total_s + 60)


def _ordered() -> list[tuple[Key, Problem]]:
    """Every sample, in the order the check's shards (``--jobs 0``) grade them, in turn."""
    problems = loader.load_all().problems
    jobs = os.cpu_count() or 1
    groups = problem_check.shards(problems, jobs) if jobs > 1 else [problems]
    queues = [
        [((p.slug, s.path.parent.name, s.path.name), p) for p in group for s in p.samples]
        for group in groups
    ]
    return [q[i] for i in range(max(map(len, queues), default=0)) for q in queues if i < len(q)]


SAMPLES = _ordered()


class Check:
    """``problems check`` running in the background; its rows as they come."""

    def __init__(self, slugs: list[str]) -> None:
        # Kept for the failure messages; closed by ``close``, when the check is over.
        self.stderr = tempfile.TemporaryFile("w+")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [*CHECK, *slugs, "--device", "cpu", "--json", "--jobs", "0"],
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            text=True,
            cwd=ROOT,
            start_new_session=True,  # its shards with it, for the clean-up
        )
        self.rows: dict[Key, dict[str, Any]] = {}
        self.invalid: list[dict[str, Any]] = []
        self.finished = False
        self.started_at = time.monotonic()
        self.seconds: float | None = None  # the whole check's wall time, once it has finished
        self.cond = threading.Condition()
        threading.Thread(target=self._read, name="problems-check", daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if not line.startswith("{"):
                continue
            row = json.loads(line)
            with self.cond:
                if "invalid" in row:
                    self.invalid.append(row)
                else:
                    self.rows[(row["problem"], row["folder"], row["sample"])] = row
                self.cond.notify_all()
        self.proc.wait()
        with self.cond:
            self.seconds = time.monotonic() - self.started_at
            self.finished = True
            self.cond.notify_all()

    def row(self, key: Key) -> dict[str, Any]:
        """The row of ``key``, once graded (the test's timeout bounds the wait)."""
        with self.cond:
            self.cond.wait_for(lambda: key in self.rows or self.finished or self._invalid(key))
            if key in self.rows:
                return self.rows[key]
            pytest.fail(f"no row for {key}: {self.invalid or self.stderr_tail()}")

    def _invalid(self, key: Key) -> bool:
        return any(r.get("problem") == key[0] for r in self.invalid)

    def stderr_tail(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read()[-3000:]

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        self.stderr.close()


_started: Check | None = None  # by ``start`` at the end of collection


def start(items: list[pytest.Item]) -> None:
    """Start the check of the problems whose samples this run selected (all of them in a full
    run), if it selected any; the tests' fixture takes it over."""
    global _started
    keys = {s[0] for s in SAMPLES}
    chosen = {
        item.callspec.params["sample"][0]
        for item in items
        if getattr(item, "callspec", None) and item.callspec.params.get("sample") in keys
    }
    if chosen and _started is None:
        _started = Check(sorted(chosen))


def stop() -> None:
    if _started is not None:
        _started.close()


def summary() -> str | None:
    """How long the background check took, for the run's summary: whether the samples or the
    rest of the suite set a run's length (records/*-2core-ci)."""
    c = _started
    if c is None:
        return None
    took = f"in {c.seconds:.0f} s" if c.seconds is not None else "unfinished"
    graded = sum(float(r.get("seconds") or 0) for r in c.rows.values())
    slowest = sorted(c.rows.items(), key=lambda kv: -float(kv[1].get("seconds") or 0))[:8]
    return (
        f"problems check: {len(c.rows)} samples graded {took} (from the end of collection; "
        f"{graded:.0f} s of gradings); slowest: "
        + ", ".join(f"{'/'.join(k)} {float(r.get('seconds') or 0):.0f} s" for k, r in slowest)
    )


@pytest.fixture(scope="module")
def check(request: pytest.FixtureRequest) -> Iterator[Check]:
    """The check started at collection's end, or (for a test of this module run alone) one of
    the core problems, started now."""
    if _started is None:
        start(request.session.items)
    c = _started or Check(sorted(CORE))
    try:
        yield c
    finally:
        c.close()


def test_the_core_problems_have_samples() -> None:
    problems = {key[0] for key, _ in SAMPLES}
    assert problems >= CORE
    triton_accepted = [k for k, _ in SAMPLES if k[1] == "accepted" and k[2].endswith(".py")]
    assert {k[0] for k in triton_accepted} >= CORE


@pytest.mark.parametrize(
    "sample",
    [
        pytest.param(key, id="/".join(key), marks=pytest.mark.timeout(grading_bound_s(p)))
        for key, p in SAMPLES
    ],
)
def test_sample_gets_its_declared_verdict(sample: Key, check: Check) -> None:
    row = check.row(sample)
    assert row["ok"], (row["expected"], row["result"]["verdict"], row["detail"])


@pytest.mark.timeout(sum(grading_bound_s(p) for _, p in SAMPLES))
def test_the_check_passes(check: Check) -> None:
    """Exit 0 and every folder valid. After the samples' tests it waits for little more than
    the last row; alone, for the whole check (hence its timeout)."""
    with check.cond:
        check.cond.wait_for(lambda: check.finished)
    assert not check.invalid, check.invalid
    assert check.proc.returncode == 0, check.stderr_tail()
