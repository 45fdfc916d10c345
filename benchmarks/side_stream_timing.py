#!/usr/bin/env python3
"""Where a side-stream submission's time comes from: the judge's two ends against CUPTI.

    python3 benchmarks/side_stream_timing.py [--n 33554432] [--calls 30]

A vector add at ``--n`` floats, timed as the runner times a call (``Hold.time_call``: behind
the holding kernel, L2 flushed), once launched on the caller's stream and once on a side
stream that ``solve`` never joins (``tests/adversarial/submissions/deferred/side_stream.py``).
For each call it prints the medians of the stream end and the device-wide end (after the
host's synchronize), and from a CUPTI trace (torch.profiler) of the same calls: the add
kernel's own duration, and how long before the holding kernel's end the add kernel began
(a side-stream kernel may take SMs as the holding kernel's blocks leave, before the start
event is recorded behind it). This is what measure.call_times had to bound (before the referee's gate, gate.py).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import torch
import triton
import triton.language as tl

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from judge.timing import measure  # noqa: E402
from judge.timing.hold import Hold  # noqa: E402


@triton.jit  # type: ignore[untyped-decorator]
def _add(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(a_ptr + offs, mask=mask)
    y = tl.load(b_ptr + offs, mask=mask)
    tl.store(c_ptr + offs, x + y, mask=mask)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=1 << 25)
    ap.add_argument("--calls", type=int, default=30)
    ns = ap.parse_args()
    n = ns.n
    a, b, c = (torch.randn(n, device="cuda") for _ in range(3))
    hold = Hold.shared()
    flusher = measure.L2Flusher.shared()
    side = torch.cuda.Stream()
    grid = (triton.cdiv(n, 1024),)

    def same() -> None:
        _add[grid](a, b, c, n, BLOCK=1024)

    def on_side() -> None:
        with torch.cuda.stream(side):
            _add[grid](a, b, c, n, BLOCK=1024)

    copy_ms = 3 * n * 4 / measure.ceiling("copy") * 1e3
    print(f"vector add n={n}: speed of light {copy_ms * 1e3:.1f} us at the measured ceiling")
    for name, fn in (("same stream", same), ("side stream", on_side)):
        for _ in range(3):
            fn()
        torch.cuda.synchronize()
        ends = []
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            for _ in range(ns.calls):
                flusher.flush()
                torch.cuda.synchronize()
                ends.append(hold.time_call(fn)[:2])
        events = sorted(
            (e for e in prof.events() if e.device_type == torch.profiler.DeviceType.CUDA),
            key=lambda e: e.time_range.start,
        )
        holds = [e for e in events if "_hold" in e.name]
        adds = [e for e in events if "_add" in e.name]
        early, dur = [], []
        for add in adds:
            before = [h for h in holds if h.time_range.start <= add.time_range.start + 50]
            if before:
                early.append(before[-1].time_range.end - add.time_range.start)
            dur.append(add.time_range.end - add.time_range.start)
        stream = statistics.median(s for s, _ in ends) * 1e3
        dev = statistics.median(d for _, d in ends) * 1e3
        print(
            f"{name:12s} stream end {stream:7.1f} us  device end {dev:7.1f} us  "
            f"kernel (CUPTI) {statistics.median(dur) if dur else float('nan'):7.1f} us  "
            f"started before the hold ended by {statistics.median(early) if early else float('nan'):5.1f} us "
            f"(max {max(early) if early else float('nan'):5.1f})  "
            f"device end as %SOL {copy_ms * 1e3 / dev * 100:5.1f}"
        )


if __name__ == "__main__":
    main()
