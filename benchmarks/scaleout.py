#!/usr/bin/env python3
"""Scale-out: workers pinned one per GPU, grading a backlog of submissions.

    python3 benchmarks/scaleout.py --gpus 2 --count 40 [--json out.json]

The same list of ``--count`` different submissions (the vector-add Triton and CUDA samples,
each with a different block size or tag, so nothing is cached between them) is graded from a
backlog twice: by one worker on GPU 0, then by one worker per GPU on GPUs 0..N-1. Each worker is
a process pinned as ``kerneldojo worker --gpu i`` pins it (``device.pin_gpu``: its runners'
sandboxes see only that GPU's device node), with its own warm runner pool, taking the next
submission as soon as it is done with one (``--concurrency 1``, as the Celery worker). The
backlog is a process queue here: the GPU host has no Redis or Celery; the web load test
measures the queue itself.

Reports submissions per minute for each run and the speed-up, and whether reported times
changed: for every submission, its benchmark median with N workers against its median with one
(the ratio's median and spread), and every verdict. Each worker grades one submission before
the clock starts (its pool warm, the GPU's ceilings and baselines measured or read).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

SAMPLES = (("triton_fast.py", "triton"), ("cuda_fast.cu", "cuda"), ("triton_simple.py", "triton"))


def submissions(count: int) -> list[tuple[str, str]]:
    """``count`` different (source, language) pairs: the samples round-robin, each a variant."""
    base = REPO / "problems" / "vector-add" / "solutions" / "accepted"
    out = []
    blocks = [256, 512, 1024, 2048, 4096]
    for i in range(count):
        name, lang = SAMPLES[i % len(SAMPLES)]
        src = (base / name).read_text()
        if lang == "triton":
            size = blocks[i % 5]

            def resize(m: re.Match[str], size: int = size) -> str:
                return m.group(0).split("=")[0] + f"= {size}"

            src = re.sub(r"\bBLOCK(_SIZE)? = \d+", resize, src)
            out.append((f"# submission {i}\n{src}", lang))
        else:
            out.append((f"// submission {i}\n{src}", lang))
    return out


def _worker(
    gpu: int, subs: list[tuple[str, str]], jobs: Any, results: Any, ready: Any, go: Any
) -> None:
    from judge import device

    device.pin_gpu(gpu)  # before torch creates a CUDA context
    from judge import grader
    from judge.problem import loader
    from judge.sandbox.runner_client import RunnerPool

    p = loader.resolve("vector-add")
    pool = RunnerPool("cuda")
    pool.settle(180)
    warm = grader.grade(p, subs[0][0], subs[0][1], device="cuda", mode="submit", pool=pool)
    ready.put({"gpu": gpu, "warm_verdict": str(warm.verdict), "warm_message": warm.message[:300]})
    go.wait()
    while True:
        i = jobs.get()
        if i is None:
            break
        t0 = time.time()
        res = grader.grade(p, subs[i][0], subs[i][1], device="cuda", mode="submit", pool=pool)
        results.put(
            {
                "i": i,
                "gpu": gpu,
                "language": subs[i][1],
                "verdict": str(res.verdict),
                "message": res.message[:200],
                "start": t0,
                "end": time.time(),
                "median_ms": [b.median_ms for b in res.benchmark],
                "referee_calls": [b.referee_calls for b in res.benchmark],
                "sandbox_start_s": res.phases.get("sandbox_start", 0.0),
            }
        )
    pool.close()


def run(gpus: list[int], subs: list[tuple[str, str]]) -> dict[str, Any]:
    ctx = mp.get_context("spawn")
    jobs, results, ready, go = ctx.Queue(), ctx.Queue(), ctx.Queue(), ctx.Event()
    procs = [ctx.Process(target=_worker, args=(g, subs, jobs, results, ready, go)) for g in gpus]
    for pr in procs:
        pr.start()
    warm = [ready.get(timeout=600) for _ in gpus]
    for i in range(len(subs)):
        jobs.put(i)
    for _ in gpus:
        jobs.put(None)
    t0 = time.time()
    go.set()
    rows = [results.get(timeout=600) for _ in subs]
    wall = max(r["end"] for r in rows) - t0
    for pr in procs:
        pr.join(120)
    rows.sort(key=lambda r: r["i"])
    return {
        "gpus": gpus,
        "warm": warm,
        "wall_s": round(wall, 2),
        "per_minute": round(60 * len(rows) / wall, 1),
        "per_gpu": {str(g): sum(r["gpu"] == g for r in rows) for g in gpus},
        "waited_for_a_runner": sum(r["sandbox_start_s"] > 0.05 for r in rows),
        "grading_s_median": round(statistics.median(r["end"] - r["start"] for r in rows), 3),
        "rows": rows,
    }


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--gpus", type=int, default=2, help="workers (one per GPU) in the second run")
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--json", type=Path)
    ns = ap.parse_args()
    subs = submissions(ns.count)
    one = run([0], subs)
    print(f"1 worker: {one['per_minute']}/min ({one['wall_s']} s)", flush=True)
    many = run(list(range(ns.gpus)), subs)
    print(f"{ns.gpus} workers: {many['per_minute']}/min ({many['wall_s']} s)", flush=True)
    ratios = [
        b / a
        for r1, rn in zip(one["rows"], many["rows"], strict=True)
        for a, b in zip(r1["median_ms"], rn["median_ms"], strict=False)
        if a and b
    ]
    by_sample: dict[str, list[float]] = {}
    for r1, rn in zip(one["rows"], many["rows"], strict=True):
        for a, b in zip(r1["median_ms"], rn["median_ms"], strict=False):
            by_sample.setdefault(SAMPLES[r1["i"] % len(SAMPLES)][0], []).append(100 * (b / a - 1))
    summary = {
        "count": ns.count,
        "workers": ns.gpus,
        "per_minute_1": one["per_minute"],
        f"per_minute_{ns.gpus}": many["per_minute"],
        "speedup": round(many["per_minute"] / one["per_minute"], 2),
        "verdicts_1": sorted({r["verdict"] for r in one["rows"]}),
        f"verdicts_{ns.gpus}": sorted({r["verdict"] for r in many["rows"]}),
        "time_ratio_median": round(statistics.median(ratios), 4) if ratios else None,
        "time_ratio_min_max": [round(min(ratios), 4), round(max(ratios), 4)] if ratios else None,
        "time_change_pct_by_sample": {
            k: {"median": round(statistics.median(v), 2), "max_abs": round(max(map(abs, v)), 2)}
            for k, v in by_sample.items()
        },
        "per_gpu": many["per_gpu"],
        "waited_for_a_runner": [one["waited_for_a_runner"], many["waited_for_a_runner"]],
        "grading_s_median": [one["grading_s_median"], many["grading_s_median"]],
        "cpus": os.cpu_count(),
    }
    print(json.dumps(summary, indent=1))
    if ns.json:
        ns.json.write_text(json.dumps({"summary": summary, "one": one, "many": many}, indent=1))


if __name__ == "__main__":
    main()
