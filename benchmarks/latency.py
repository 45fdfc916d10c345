#!/usr/bin/env python3
"""Verdict latency of a warm worker: submissions the worker has not seen, through the runner pool.

    python3 benchmarks/latency.py --problem vector-add --count 50 [--device cuda|cpu] [--mode submit|run]
    python3 benchmarks/latency.py --suite --count 8 --resubmit 3 --json out.json

Each submission is a sample with a different block size where it has one, a unique tag, and a
unique comment inside every ``@triton.jit`` function (part of Triton's cache key): nothing
compiled for an earlier one helps, as for a learner's new attempt. They are graded one after
another as a worker would, --gap seconds apart, with a warm pool (runners for the next
submissions start while this one is graded; they create their CUDA contexts once a grading is
over, as in the worker). ``--resubmit N`` then grades the last source N more times, as a learner
pressing Submit again (the per-source kernel cache, sourcecache.py, applies). On a GPU the worker
first warms up as worker/tasks.py does (warmup.py: every problem's editorial graded once;
``--cold`` skips it).

``--suite``: every problem's editorial (``triton_fast.py``), the autotuned tutorial-style matmul
written for this benchmark (``benchmarks/kernels/matmul_autotune16.py``) and the tensor-descriptor
attention sample. Prints p50/p95 of "grade called" to "verdict" and the median of each phase.
The queue's share (web -> Celery -> worker) is measured separately by the web app's load test.
"""

from __future__ import annotations

import argparse
import ast
import cProfile
import json
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from judge import grader, warmup  # noqa: E402
from judge.problem import loader  # noqa: E402
from judge.sandbox.runner_client import RunnerPool  # noqa: E402


def _tag_kernels(source: str, tag: str) -> str:
    """A comment as the first line of every ``@triton.jit`` function's body."""
    lines = source.splitlines()
    spots = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and any(
            "jit" in ast.unparse(d) for d in node.decorator_list
        ):
            first = node.body[0]
            spots.append((first.lineno - 1, " " * first.col_offset))
    for line, indent in sorted(spots, reverse=True):
        lines.insert(line, f"{indent}# {tag}")
    return "\n".join(lines) + "\n"


def variants(source: str, count: int, salt: str = "") -> list[str]:
    """Different sources: block-size constants changed where there are any, unique tags."""
    out = []
    blocks = [256, 512, 1024, 2048, 4096]
    for i in range(count):
        size = blocks[i % 5]

        def resize(m: re.Match[str], size: int = size) -> str:
            return f"{m.group(0).split('=')[0]}= {size}"

        s = re.sub(r"\bBLOCK(_SIZE)? = \d+", resize, source)
        tag = f"variant {salt}{i} {time.time_ns()}"
        out.append(f"# {tag}\n{_tag_kernels(s, tag)}")
    return out


TOP_LEVEL = (
    "compile",
    "sandbox_start",
    "calibrate",
    "load",
    "precompile",
    "tests",
    "settle",
    "benchmark",
    "cleanup",
)


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


# (problem slug, sample: a file name among its samples, None for triton_fast.py, or a path)
SUITE: list[tuple[str, str | Path | None]] = [
    (slug, None) for slug in ("vector-add", "reduction", "softmax", "matmul", "flash-attention")
]
SUITE += [
    ("matmul", REPO / "benchmarks" / "kernels" / "matmul_autotune16.py"),
    ("flash-attention", "triton_descriptor.py"),
]


# --referee-profile: the referee's own calls, accumulated over every grading (cProfile).
PROFILER: cProfile.Profile | None = None


def grade_one(
    p: Any, src: str, dev: str, mode: str, pool: RunnerPool
) -> tuple[float, dict[str, Any], str]:
    t0 = time.monotonic()
    if PROFILER is not None:
        PROFILER.enable()
    try:
        res = grader.grade(p, src, "triton", device=dev, mode=mode, pool=pool)
    finally:
        if PROFILER is not None:
            PROFILER.disable()
    total = time.monotonic() - t0
    phases = {
        **res.phases,
        **{f"runs:{b.name}": b.runs for b in res.benchmark},
        "throttled": sum(bool(b.clocks.get("throttled")) for b in res.benchmark),
    }
    if res.verdict != "accepted":
        print(f"    {res.verdict}: {res.message[:300]}", flush=True)
    return total, phases, str(res.verdict)


def summarize(totals: list[float], phases: list[dict[str, Any]]) -> dict[str, Any]:
    keys = sorted({k for ph in phases for k in ph})
    return {
        "p50_s": round(pct(totals, 0.5), 3),
        "p95_s": round(pct(totals, 0.95), 3),
        "max_s": round(max(totals), 3),
        "waited_for_a_runner": sum(1 for ph in phases if ph.get("sandbox_start", 0) > 0.05),
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
    }


def measure(
    p: Any, source: str, name: str, ns: argparse.Namespace, dev: str, pool: RunnerPool
) -> dict[str, Any]:
    """``ns.count`` new sources, then ``ns.resubmit`` gradings of the last one."""
    totals, phases, verdicts = [], [], []
    srcs = variants(source, ns.count, salt=f"{p.slug}/{name} ")
    for i, src in enumerate(srcs):
        total, ph, verdict = grade_one(p, src, dev, ns.mode, pool)
        totals.append(total)
        phases.append(ph)
        verdicts.append(verdict)
        print(f"{p.slug}/{name} {i:3d} {verdict} {total:.2f}s {ph}", flush=True)
        # Learners' submissions arrive --gap seconds apart. The pool refills as in the worker
        # (worker/tasks.py): grade() lets spares start their CUDA contexts once it is done;
        # nothing else wakes them (a wake-up just before the next grading made its benchmark
        # wait ~0.5 s for a spare's CUDA start-up, 2026-11-23c).
        time.sleep(ns.gap)
    again, again_phases = [], []
    for i in range(ns.resubmit):
        total, ph, verdict = grade_one(p, srcs[-1], dev, ns.mode, pool)
        again.append(total)
        again_phases.append(ph)
        verdicts.append(verdict)
        print(f"{p.slug}/{name} again {i} {verdict} {total:.2f}s {ph}", flush=True)
        time.sleep(ns.gap)
    out = {
        "problem": p.slug,
        "kernel": name,
        "count": ns.count,
        "verdicts": {v: verdicts.count(v) for v in set(verdicts)},
        "new_sources": summarize(totals, phases),
        "raw": {"totals": totals, "phases": phases, "again": again},
    }
    if again:
        out["resubmissions"] = summarize(again, again_phases)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--problem", default="vector-add")
    ap.add_argument(
        "--suite", action="store_true", help="every editorial and the two tutorial styles"
    )
    ap.add_argument(
        "--all",
        action="store_true",
        help="with --suite: also the editorial of every other problem in problems/",
    )
    ap.add_argument(
        "--only",
        action="append",
        help="with --suite: only these problems (warm-up included); repeat for more",
    )
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--resubmit", type=int, default=0)
    ap.add_argument("--device", default="auto")
    ap.add_argument("--mode", default="submit")
    ap.add_argument("--sample", default="triton_fast.py")
    ap.add_argument("--json", type=Path, help="write the raw figures here")
    ap.add_argument(
        "--cold",
        action="store_true",
        help="skip the worker's warm-up (each problem's first grading then pays for it)",
    )
    ap.add_argument(
        "--gap", type=float, default=2.0, help="seconds between one verdict and the next submission"
    )
    ap.add_argument(
        "--referee-profile",
        type=Path,
        help="cProfile the referee over every grading (not the warm-up) and write its stats "
        "here (read with python -m pstats): where a grading's 'unaccounted' time goes",
    )
    ns = ap.parse_args()
    dev = grader.resolve_device(ns.device)
    pool = RunnerPool(dev)
    pool.settle(120)  # a warm worker: its first runner is ready before the first submission
    warmed: dict[str, Any] = {}
    if dev == "cuda" and not ns.cold:
        # As a GPU worker does at start (worker/tasks.py): every problem's editorial once.
        t0 = time.monotonic()
        warmed = warmup.warm(
            lambda p, src: str(grader.grade(p, src, "triton", device=dev, pool=pool).verdict),
            warmup.Gate(),
            only=ns.only,
        )
        print(f"warm-up {time.monotonic() - t0:.1f}s {warmed}", flush=True)
        time.sleep(ns.gap)
    global PROFILER
    if ns.referee_profile:
        PROFILER = cProfile.Profile()
    entries: list[tuple[str, Any]] = list(SUITE) if ns.suite else [(ns.problem, ns.sample)]
    if ns.suite and ns.all:
        seen = {slug for slug, _ in SUITE}
        for q in loader.load_all().problems:
            ed = warmup.editorial(q)
            if q.slug not in seen and ed is not None:
                entries.append((q.slug, ed))
    if ns.only:
        entries = [(slug, which) for slug, which in entries if slug in ns.only]
    results = []
    for slug, which in entries:
        p = loader.resolve(slug)
        if isinstance(which, Path):
            path = which
        else:
            path = next(s.path for s in p.samples if s.path.name == (which or "triton_fast.py"))
        results.append(measure(p, path.read_text(), path.name, ns, dev, pool))
        if ns.json:  # as it goes: a run cut short keeps what it measured
            ns.json.write_text(
                json.dumps(
                    {"device": dev, "gap_s": ns.gap, "warm_up": warmed, "results": results},
                    indent=1,
                )
            )
    pool.close()
    if PROFILER is not None and ns.referee_profile:
        PROFILER.dump_stats(str(ns.referee_profile))
    for r in results:
        brief = {k: v for k, v in r.items() if k != "raw"}
        print(json.dumps(brief, indent=1))
    print(
        "phase nesting: tests includes first_launch (the Triton JIT) and tests_*; benchmark "
        "includes clocks and baseline; cuda_init ran ahead of demand and is not in the total"
    )


if __name__ == "__main__":
    main()
