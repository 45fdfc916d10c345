"""``kerneldojo problems check``: every sample solution graded against its declared verdict.

One process grades the samples one after another (``rows``). With ``--jobs N`` the problems are
split into N shards of about equal cost, each checked by its own ``kerneldojo problems check
--shard`` process (``rows_in_parallel``): on the CPU the Triton interpreter keeps one core busy per
process, so a 2-core CI machine checks the folders in about half the time. Rows are plain dicts,
the same whether they were graded here or in a shard (``--json`` prints them).
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from typing import Any

from judge import languages
from judge.problem.schema import Problem, ProblemError, SampleSolution
from judge.verdicts import Verdict

# A shard: the same command, printing its rows as JSON lines (the problems and options follow).
SHARD_COMMAND = [sys.executable, "-m", "judge.cli", "problems", "check", "--shard"]


def rows(chosen: list[Problem], device: str, mode: str) -> Iterator[dict[str, Any]]:
    """One row per sample, in order; an ``invalid`` row for a folder whose reference fails."""
    from judge import grader
    from judge.problem import loader
    from judge.sandbox.runner_client import RunnerPool

    pool = RunnerPool(grader.resolve_device(device))
    try:
        for p in chosen:
            try:
                loader.load_reference(p)
            except ProblemError as e:
                yield {"invalid": str(e), "problem": p.slug, "samples": len(p.samples)}
                continue
            for s in p.samples:
                yield _grade(p, s, device, mode, pool)
    finally:
        pool.close()


def _grade(p: Problem, s: SampleSolution, device: str, mode: str, pool: Any) -> dict[str, Any]:
    from judge import grader

    t0 = time.monotonic()
    # A check of declared verdicts: no sanitizer run after each declared failure, and no test
    # case after the first that fails (grader.grade): the verdict and the first failure's
    # message, which is what a sample declares, are the same.
    res = grader.grade(
        p,
        s.path.read_text(encoding="utf-8"),
        s.language,
        device=device,
        mode=mode,
        pool=pool,
        sanitize=False,
        all_cases=False,
    )
    seconds = time.monotonic() - t0
    expected = s.expected
    detail = ""
    if res.verdict == Verdict.NOT_RUN and not languages.require(s.language).runs_on_cpu:
        # Without a GPU a CUDA sample is only compiled: a compile_error must still fail to
        # compile. Its declared message is checked where it runs (scripts/gpu_check.py).
        ok = expected != Verdict.COMPILE_ERROR
    elif res.verdict != expected:
        ok = False
    elif not s.message_ok(res.message):
        ok = False
        detail = f"message lacks {s.expected_message!r}; got: "
    else:
        ok = True
    if not ok:
        detail = (detail + (res.message or ""))[:300]
    return {
        "problem": p.slug,
        "sample": s.path.name,
        "folder": s.path.parent.name,
        "expected": str(expected),
        "expected_message": s.expected_message,
        "result": res.to_dict(),
        "ok": ok,
        "seconds": round(seconds, 2),
        "detail": detail,
    }


def cost(p: Problem) -> int:
    """A rough cost of checking a folder on the CPU: samples times interpreter cases."""
    return max(1, len(p.samples)) * max(1, sum(1 for c in p.tests if c.interpreter))


def shards(chosen: list[Problem], jobs: int) -> list[list[Problem]]:
    """``chosen`` split into at most ``jobs`` groups of about equal ``cost`` (largest first)."""
    groups: list[list[Problem]] = [[] for _ in range(max(1, min(jobs, len(chosen))))]
    loads = [0] * len(groups)
    for p in sorted(chosen, key=cost, reverse=True):
        i = loads.index(min(loads))
        groups[i].append(p)
        loads[i] += cost(p)
    return [g for g in groups if g]


def rows_in_parallel(
    chosen: list[Problem], device: str, mode: str, jobs: int
) -> Iterator[dict[str, Any]]:
    """The rows of ``rows`` for every problem, graded by ``jobs`` shard processes, as they come.

    A shard that dies gives an ``invalid`` row naming its problems and the end of its stderr, so
    a crash is a failed check, never a silently shorter one."""
    done: queue.Queue[dict[str, Any] | None] = queue.Queue()
    threads = [
        threading.Thread(target=_run_shard, args=(g, device, mode, done), daemon=True)
        for g in shards(chosen, jobs)
    ]
    for t in threads:
        t.start()
    running = len(threads)
    while running:
        row = done.get()
        if row is None:
            running -= 1
        else:
            yield row


def _run_shard(
    group: list[Problem], device: str, mode: str, done: queue.Queue[dict[str, Any] | None]
) -> None:
    slugs = [p.slug for p in group]
    want = sum(len(p.samples) for p in group)
    cmd = [*SHARD_COMMAND, "--device", device, "--mode", mode, *slugs]
    got = 0
    try:
        with tempfile.TemporaryFile("w+") as log:
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, text=True)
            assert proc.stdout is not None
            for line in proc.stdout:
                if line.startswith("{"):
                    row = json.loads(line)
                    got += row["samples"] if "invalid" in row else 1
                    done.put(row)
            rc = proc.wait()
            if rc != 0 or got < want:
                log.seek(0)
                tail = log.read()[-1500:]
                done.put(
                    {
                        "invalid": f"the check of {', '.join(slugs)} exited {rc} after {got} of "
                        f"{want} samples: {tail}"
                    }
                )
    finally:
        done.put(None)
