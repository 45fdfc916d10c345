#!/usr/bin/env python3
"""Whether a kernel's speed on the referee's shared buffers depends on the process that maps them.

    python3 benchmarks/ipc_noise.py [--procs 8] [--calls 20] [--sample triton_fast.py] [--json f]

The judge's benchmark buffers are the referee's own ``cuMemAlloc`` allocations, kept for every
grading (``buffers.kept``), and each grading's fresh runner process maps them through CUDA IPC.
On an H100 the flash-attention editorials' medians moved by 3-4% between gradings with the SM
clock the same in every grading (1.81-1.82 GHz across the calls, ``benchmarks/clock_gate.py``),
alternating from one grading to the next. This script times the editorial at b=16 h=16
s=4096 d=64 the way the runner does (``Hold.time_call``, L2 flushed, median of ``--calls``) in
``--procs`` fresh processes one after another, each on the parent's buffers mapped through IPC
and on a private copy of them, and prints the virtual address of each mapping: a spread on the
IPC mapping and not on the copy points at the mapping.
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
sys.path.insert(0, str(REPO))
B, H, S, D = 16, 16, 4096, 64


def _load(sample: str) -> Any:
    path = REPO / "problems" / "flash-attention" / "solutions" / "accepted" / sample
    spec = importlib.util.spec_from_file_location("editorial", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _median(fn: Any, calls: int) -> tuple[float, float | None]:
    import torch

    from judge.timing import measure
    from judge.timing.hold import Hold

    hold, flusher = Hold.shared(), measure.L2Flusher.shared()
    fn()
    torch.cuda.synchronize()
    times, ghz = [], []
    for _ in range(calls):
        flusher.flush()
        torch.cuda.synchronize()
        t = hold.time_call(fn)
        times.append(t.stream_ms)
        if t.sm_ghz is not None:
            ghz.append(t.sm_ghz)
    return statistics.median(times), statistics.median(ghz) if ghz else None


def child(descs: list[dict[str, Any]], sample: str, calls: int) -> dict[str, Any]:
    import torch

    from judge.sandbox import buffers

    torch.zeros(1, device="cuda")
    mod = _load(sample)
    q, k, v, o = (buffers.open_descriptor(d, Path("."))[0] for d in descs)
    ipc_ms, ipc_ghz = _median(lambda: mod.solve(q, k, v, o, B, H, S, D), calls)
    q2, k2, v2, o2 = (t.clone() for t in (q, k, v, o))
    own_ms, own_ghz = _median(lambda: mod.solve(q2, k2, v2, o2, B, H, S, D), calls)
    again_ms, _ = _median(lambda: mod.solve(q, k, v, o, B, H, S, D), calls)
    return {
        "ipc_ms": round(ipc_ms, 4),
        "own_ms": round(own_ms, 4),
        "ipc_again_ms": round(again_ms, 4),
        "ghz": [ipc_ghz, own_ghz],
        "ipc_va_mod_2MiB": [t.data_ptr() % (2 << 20) for t in (q, k, v, o)],
        "ipc_va": [hex(t.data_ptr()) for t in (q, k, v, o)],
        "own_va_mod_2MiB": [t.data_ptr() % (2 << 20) for t in (q2, k2, v2, o2)],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--procs", type=int, default=8)
    ap.add_argument("--calls", type=int, default=20)
    ap.add_argument("--sample", default="triton_fast.py")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ns = ap.parse_args()
    if ns.child:
        print(json.dumps(child(json.loads(ns.child), ns.sample, ns.calls)))
        return
    import torch

    from judge.sandbox import buffers

    torch.zeros(1, device="cuda")
    bufs = [
        buffers.create((B, H, S, D), "float16", "cuda", Path("."), n) for n in ("q", "k", "v", "o")
    ]
    for b in bufs[:3]:
        b.tensor.copy_(torch.randn(B, H, S, D, device="cuda").half())
    torch.cuda.synchronize()
    descs = json.dumps([b.descriptor() for b in bufs])
    rows = []
    for p in range(ns.procs):
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--child",
                descs,
                "--sample",
                ns.sample,
                "--calls",
                str(ns.calls),
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        if out.returncode != 0:
            print(f"process {p} failed: {out.stderr[-2000:]}", flush=True)
            continue
        row = json.loads(out.stdout.strip().splitlines()[-1])
        rows.append(row)
        print(f"process {p}: {row}", flush=True)
    for key in ("ipc_ms", "own_ms", "ipc_again_ms"):
        vals = [r[key] for r in rows]
        if vals:
            print(f"{key}: {vals}  spread {100 * (max(vals) / min(vals) - 1):.2f}%")
    if ns.json:
        ns.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
