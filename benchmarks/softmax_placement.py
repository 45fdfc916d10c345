#!/usr/bin/env python3
"""Does where a buffer sits change a kernel's time? Softmax 32768 x 4096 samples, timed outside
the judge with torch events after an L2 flush, their input and output placed three ways:

* ``plain``: torch.empty tensors;
* ``offset``: views that start 64 MiB into larger allocations, as the judge's guard bands
  place them (guards.py);
* ``offset+fill``: the same, with 64 MiB guards on both sides rewritten before every call.

    python3 benchmarks/softmax_placement.py [--runs 40] [--sample triton_simple.py]

Prints the median (ms) of each placement, interleaved round by round.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

REPO = Path(__file__).resolve().parents[1]
ROWS, COLS = 32768, 4096
GUARD = 64 << 20


def load(sample: str) -> Callable[..., Any]:
    path = REPO / "problems" / "softmax" / "solutions" / "accepted" / sample
    spec = importlib.util.spec_from_file_location("sample", path)
    if spec is None or spec.loader is None:
        sys.exit(f"{path}: not a Python file that can be imported")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.solve


def guarded(nbytes: int) -> tuple[torch.Tensor, torch.Tensor]:
    raw = torch.empty(GUARD + nbytes + GUARD, dtype=torch.uint8, device="cuda")
    return raw, raw[GUARD : GUARD + nbytes].view(torch.float32).view(ROWS, COLS)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--sample", default="triton_simple.py")
    ns = ap.parse_args()
    solve = load(ns.sample)
    nbytes = ROWS * COLS * 4
    src = torch.randn(ROWS, COLS, device="cuda")
    plain = (src.clone(), torch.empty_like(src))
    raw_x, gx = guarded(nbytes)
    raw_y, gy = guarded(nbytes)
    gx.copy_(src)
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    pattern = torch.randint(0, 256, (GUARD,), dtype=torch.uint8, device="cuda")
    times: dict[str, list[float]] = {"plain": [], "offset": [], "offset+fill": []}
    for _ in range(3):  # warm-up and compile
        solve(plain[0], plain[1], ROWS, COLS)
    for _ in range(ns.runs):
        for name in times:
            x, y = plain if name == "plain" else (gx, gy)
            if name == "offset+fill":
                for raw in (raw_x, raw_y):
                    raw[:GUARD].copy_(pattern)
                    raw[GUARD + nbytes :].copy_(pattern)
            flush.zero_()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            solve(x, y, ROWS, COLS)
            end.record()
            end.synchronize()
            times[name].append(start.elapsed_time(end))
    print(
        f"{ns.sample} softmax {ROWS} x {COLS}, {ns.runs} runs each, {torch.cuda.get_device_name()}"
    )
    for name, t in times.items():
        print(f"  {name:12} median {statistics.median(t):.4f} ms  min {min(t):.4f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
