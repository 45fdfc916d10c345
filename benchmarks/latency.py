#!/usr/bin/env python3
"""Verdict latency of a warm worker: N different submissions through the runner pool.

    python3 benchmarks/latency.py --problem vector-add --count 50 [--device cuda|cpu] [--mode submit|run]

Each submission is the problem's accepted Triton sample with a different block size or a
comment (so nothing is cached between them), graded one after another as a worker would,
--gap seconds apart, with a warm pool (runners for the next submissions start while this one
is graded; they create their CUDA contexts once a grading is over, as in the worker).
Prints p50/p95 of the time from "grade called" to "verdict" and the median of each phase
(runner start wait, load, compile, tests, benchmark). The queue's share (web -> Celery ->
worker) is measured separately by the web app's load test.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from worker.grading import grader, problems  # noqa: E402
from worker.grading.runner_client import RunnerPool  # noqa: E402


def variants(source: str, count: int) -> list[str]:
    """Different sources: block-size constants changed where there are any, plus a unique tag."""
    out = []
    blocks = [256, 512, 1024, 2048, 4096]
    for i in range(count):
        s = re.sub(
            r"\bBLOCK(_SIZE)? = \d+",
            lambda m, i=i: f"{m.group(0).split('=')[0]}= {blocks[i % 5]}",
            source,
        )
        out.append(f"# variant {i}\n{s}")
    return out


TOP_LEVEL = (
    "compile",
    "sandbox_start",
    "calibrate",
    "load",
    "tests",
    "settle",
    "benchmark",
    "cleanup",
)


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--problem", default="vector-add")
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--device", default="auto")
    ap.add_argument("--mode", default="submit")
    ap.add_argument("--sample", default="triton_fast.py")
    ap.add_argument("--json", type=Path, help="write the raw figures here")
    ap.add_argument(
        "--gap", type=float, default=2.0, help="seconds between one verdict and the next submission"
    )
    ns = ap.parse_args()
    p = problems.resolve(ns.problem)
    sample = next(s for s in p.samples if s.path.name == ns.sample)
    dev = grader.resolve_device(ns.device)
    pool = RunnerPool(dev)
    pool.settle(120)  # a warm worker: its first runner is ready before the first submission
    totals, phases, verdicts = [], [], []
    for i, src in enumerate(variants(sample.path.read_text(), ns.count)):
        t0 = time.monotonic()
        res = grader.grade(p, src, "triton", device=dev, mode=ns.mode, pool=pool)
        totals.append(time.monotonic() - t0)
        phases.append(
            {
                **res.phases,
                **{f"runs:{b.name}": b.runs for b in res.benchmark},
                "throttled": sum(bool(b.clocks.get("throttled")) for b in res.benchmark),
            }
        )
        verdicts.append(str(res.verdict))
        print(f"{i:3d} {res.verdict} {totals[-1]:.2f}s {res.phases}", flush=True)
        if ns.json:  # as it goes: a run cut short keeps what it measured
            ns.json.write_text(json.dumps({"totals": totals, "phases": phases}, indent=1))
        # Learners' submissions arrive --gap seconds apart. The pool refills as in the worker
        # (worker/tasks.py): grade() lets spares start their CUDA contexts once it is done;
        # nothing else wakes them (a wake-up just before the next grading made its benchmark
        # wait ~0.5 s for a spare's CUDA start-up, 2026-11-23c).
        time.sleep(ns.gap)
    pool.close()
    keys = sorted({k for ph in phases for k in ph})
    summary = {
        "problem": ns.problem,
        "device": dev,
        "mode": ns.mode,
        "count": ns.count,
        "verdicts": {v: verdicts.count(v) for v in set(verdicts)},
        "gap_s": ns.gap,
        "pool_size": pool.size,
        "waited_for_a_runner": sum(1 for ph in phases if ph.get("sandbox_start", 0) > 0.05),
        "p50_s": round(pct(totals, 0.5), 3),
        "p95_s": round(pct(totals, 0.95), 3),
        "phase_median_s": {
            k: round(statistics.median(ph.get(k, 0.0) for ph in phases), 3) for k in keys
        },
        # What the top-level phases leave out (set-up of the session, result assembly).
        "unaccounted_median_s": round(
            statistics.median(
                t - sum(ph.get(k, 0.0) for k in TOP_LEVEL)
                for t, ph in zip(totals, phases, strict=True)
            ),
            3,
        ),
        "phase_nesting": "tests includes first_launch (the Triton JIT) and tests_*; benchmark includes "
        "clocks and baseline; cuda_init ran ahead of demand and is not in the total",
    }
    print(json.dumps(summary, indent=1))
    if ns.json:
        ns.json.write_text(
            json.dumps({"summary": summary, "totals": totals, "phases": phases}, indent=1)
        )


if __name__ == "__main__":
    main()
