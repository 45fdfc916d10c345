#!/usr/bin/env python3
"""Timing fidelity: the same submissions graded again and again, as a worker would grade them.

    python3 benchmarks/fidelity.py --problem softmax --sample triton_fast.py \\
        --sample cuda_fast.cu --sample cuda_simple.cu --rounds 10 --json fidelity.json

Each round grades every sample once (round-robin, so drift in clocks or temperature touches all
of them alike) with the sandbox and the full timing protocol. Reports, per sample and benchmark
case, the mean and the coefficient of variation (CV = stdev / mean) of the reported medians over
the rounds; per round, the ranking of the samples by the geometric mean over the benchmark cases
(how the leaderboard ranks) and whether it differs from the first round's; and the SM clocks and
throttle reasons the grader recorded around every case.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from judge import grader  # noqa: E402
from judge.problem import loader  # noqa: E402
from judge.sandbox.runner_client import RunnerPool  # noqa: E402
from judge.verdicts import Verdict  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--problem", default="softmax")
    ap.add_argument("--sample", action="append", help="accepted sample file names (default: all)")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--json", type=Path, help="write the raw figures here")
    ns = ap.parse_args()

    p = loader.resolve(ns.problem)
    samples = [s for s in p.samples if s.expected == Verdict.ACCEPTED]
    if ns.sample:
        samples = [s for s in samples if s.path.name in ns.sample]
    pool = RunnerPool("cuda")
    pool.settle(120)
    medians: dict[str, list[list[float]]] = {s.path.name: [] for s in samples}
    clocks: list[dict[str, Any]] = []
    rankings: list[list[str]] = []
    t0 = time.monotonic()
    for r in range(ns.rounds):
        geo: dict[str, float] = {}
        for s in samples:
            # Back to back, as a busy worker grades: the pool refills between gradings and
            # never starts a CUDA context while one is timed.
            res = grader.grade(p, s.path.read_text(), s.language, device="cuda", pool=pool)
            if res.verdict != Verdict.ACCEPTED:
                print(f"round {r} {s.path.name}: {res.verdict} {res.message[:200]}", flush=True)
                continue
            meds = [b.median_ms for b in res.benchmark]
            medians[s.path.name].append(meds)
            geo[s.path.name] = math.exp(statistics.fmean(math.log(m) for m in meds))
            for b in res.benchmark:
                clocks.append({"sample": s.path.name, "case": b.name, "round": r, **b.clocks})
            referee = [b.referee_calls for b in res.benchmark]
            gap = res.phases.get("gate_overhead_us")
            print(
                f"round {r} {s.path.name}: {meds} referee-timed calls {referee} gate {gap} us",
                flush=True,
            )
        rankings.append(sorted(geo, key=geo.__getitem__))
    pool.close()

    rows = []
    for name, runs in medians.items():
        for i, case in enumerate(p.benchmarks):
            xs = [m[i] for m in runs]
            if len(xs) < 2:
                continue
            mean = statistics.fmean(xs)
            rows.append(
                {
                    "sample": name,
                    "case": case.name,
                    "rounds": len(xs),
                    "mean_ms": round(mean, 5),
                    "min_ms": round(min(xs), 5),
                    "max_ms": round(max(xs), 5),
                    "cv_pct": round(100 * statistics.stdev(xs) / mean, 3),
                }
            )
    flips = sum(1 for rk in rankings[1:] if rk != rankings[0])
    throttled = sum(1 for c in clocks if c.get("throttled"))
    sm = sorted(
        {
            int(c[k]["sm_mhz"])
            for c in clocks
            for k in ("before", "after")
            if isinstance(c.get(k), dict) and c[k].get("sm_mhz")
        }
    )
    summary = {
        "problem": p.slug,
        "rounds": ns.rounds,
        "wall_s": round(time.monotonic() - t0, 1),
        "ranking_first_round": rankings[0] if rankings else [],
        "rounds_with_a_different_ranking": flips,
        "cases_measured_while_throttled": throttled,
        "sm_clocks_seen_mhz": sm,
    }
    print("| sample | case | rounds | mean ms | min ms | max ms | CV % |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print(
            f"| {row['sample']} | {row['case']} | {row['rounds']} | {row['mean_ms']} | "
            f"{row['min_ms']} | {row['max_ms']} | {row['cv_pct']} |"
        )
    print(json.dumps(summary, indent=1))
    if ns.json:
        ns.json.write_text(
            json.dumps(
                {"summary": summary, "rows": rows, "rankings": rankings, "clocks": clocks},
                indent=1,
            )
        )


if __name__ == "__main__":
    main()
