#!/usr/bin/env python3
"""Whether a compute-bound kernel's speed depends on the process or on its buffers.

    python3 benchmarks/process_noise.py [--procs 6] [--sets 3] [--calls 20] [--json out.json]

The judge grades each submission in a fresh runner process over the referee's benchmark
buffers, which stay the same for every grading (``buffers.kept``). Flash-attention medians
still moved by 2-3% from one grading to the next on an H100 (2026-11-24), with no throttling.
This script separates the two candidates, without the judge: each of ``--procs`` fresh
processes allocates ``--sets`` sets of inputs for the flash-attention Triton editorial at
b=16 h=16 s=4096 d=64 (fp16) and times the editorial on each set (``Hold.time_call``, L2 flushed,
median of ``--calls``), then once more on the first set, and reads the SM clock right after
each call (``judge/timing/clock.py``: SM cycles over global-timer nanoseconds in a 50 us
spin). A spread across the sets of one process points at the memory the buffers got; a spread
across processes with the sets of each process alike points at the process (its context, its virtual addresses, its compiled kernel's place).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
EDITORIAL = REPO / "problems" / "flash-attention" / "solutions" / "accepted" / "triton_fast.py"
B, H, S, D = 16, 16, 4096, 64


def child(sets: int, calls: int) -> dict[str, Any]:
    import torch

    sys.path.insert(0, str(REPO))
    from judge.timing import measure
    from judge.timing.clock import ClockProbe
    from judge.timing.hold import Hold

    spec = importlib.util.spec_from_file_location("editorial", EDITORIAL)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    hold, flusher = Hold.shared(), measure.L2Flusher.shared()
    bufs = [
        [torch.randn(B, H, S, D, device="cuda", dtype=torch.float16) for _ in range(4)]
        for _ in range(sets)
    ]
    for q, k, v, o in bufs:
        mod.solve(q, k, v, o, B, H, S, D)  # compile and warm up on every set
    torch.cuda.synchronize()

    probe = ClockProbe.shared()

    def median(i: int) -> tuple[float, float]:
        q, k, v, o = bufs[i]
        times, clocks = [], []
        for _ in range(calls):
            flusher.flush()
            torch.cuda.synchronize()
            times.append(hold.time_call(lambda: mod.solve(q, k, v, o, B, H, S, D))[0])
            clocks.append(probe.read())  # right after the call: the clock it left the SM at
        return statistics.median(times), statistics.median(clocks)

    res = [median(i) for i in range(sets)] + [median(0)]
    meds = [m for m, _ in res]
    return {
        "medians_ms": [round(m, 4) for m in meds],
        "sm_ghz_after": [round(c, 4) for _, c in res],
        "ptr_mod_2MiB": [[t.data_ptr() % (2 << 20) for t in s] for s in bufs],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--procs", type=int, default=6)
    ap.add_argument("--sets", type=int, default=3)
    ap.add_argument("--calls", type=int, default=20)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ns = ap.parse_args()
    if ns.child:
        print(json.dumps(child(ns.sets, ns.calls)))
        return
    rows = []
    for p in range(ns.procs):
        out = subprocess.run(
            [sys.executable, __file__, "--child", "--sets", str(ns.sets), "--calls", str(ns.calls)],
            capture_output=True,
            text=True,
            timeout=300,
        )
        if out.returncode != 0:
            print(f"process {p} failed: {out.stderr[-2000:]}")
            continue
        row = json.loads(out.stdout.strip().splitlines()[-1])
        rows.append(row)
        meds = row["medians_ms"]
        spread = 100 * (max(meds) / min(meds) - 1)
        print(
            f"process {p}: medians per buffer set (last: set 0 again) {meds}  spread {spread:.2f}%"
            f"  SM GHz right after the calls {row['sm_ghz_after']}"
        )
    firsts = [r["medians_ms"][0] for r in rows]
    if firsts:
        print(
            f"across processes (set 0): min {min(firsts)} max {max(firsts)} "
            f"spread {100 * (max(firsts) / min(firsts) - 1):.2f}%"
        )
    if ns.json:
        ns.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
