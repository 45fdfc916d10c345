#!/usr/bin/env python3
"""How long the host takes to see the device idle, by the CUDA scheduling mode and call length.

    python3 benchmarks/sync_latency.py [--calls 100] [--json out.json]

A timed call in the judge has two ends (``judge/timing/hold.py``): its stream's end event and,
after a device-wide synchronize, a second end event. The referee decides from the difference
whether work outlasted the stream (timing.call_times, replaced on 2026-11-25 by the referee's gate: gate.py), so an honest call's difference must
be small and must not grow with the call. For each scheduling mode of the CUDA context (the
default "auto", and "spin", set with ``cuDevicePrimaryCtxSetFlags`` before the context exists,
each in a fresh process) and for calls of 0, 150 us and 2.6 ms (a spinning kernel), it prints:

* ``gap``: device end minus stream end (``Hold.time_call``, as the runner times a call);
* ``poll``: the host spins on the stream's end event, records a mark, synchronizes and records
  the end: mark to end (a variant tried and dropped: in the judge it read 40-120 us).

With ``--companion``, another process holds a CUDA context of its own on the same GPU and runs
a tiny kernel every 2 ms, as the referee's context does between the runner's calls.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

SCHED = {"auto": 0, "spin": 1, "yield": 2, "blocking": 4}


def child(mode: str, calls: int) -> dict[str, Any]:
    lib = ctypes.CDLL("libcuda.so.1")
    assert lib.cuInit(0) == 0
    dev = ctypes.c_int()
    assert lib.cuDeviceGet(ctypes.byref(dev), 0) == 0
    assert lib.cuDevicePrimaryCtxSetFlags_v2(dev, SCHED[mode]) == 0
    import torch

    torch.zeros(1, device="cuda")
    from clock_gate import spin

    from judge.timing.hold import Hold

    hold = Hold.shared()
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    out = torch.zeros(4 * sms, dtype=torch.int64, device="cuda")
    res: dict[str, Any] = {}
    for us in (0, 150, 2600):

        def fn(us: int = us) -> None:
            if us:
                spin[(4 * sms,)](out, us * 1000)

        fn()
        torch.cuda.synchronize()
        gap, poll = [], []
        for _ in range(calls):
            t = hold.time_call(fn)
            gap.append((t.device_ms - t.stream_ms) * 1e3)
            stream = torch.cuda.current_stream()
            s, e, m, d = (torch.cuda.Event(enable_timing=True) for _ in range(4))
            hold.hold()
            s.record(stream)
            fn()
            e.record(stream)
            hold.release()
            while not e.query():
                pass
            m.record(stream)
            torch.cuda.synchronize()
            d.record(stream)
            d.synchronize()
            poll.append(m.elapsed_time(d) * 1e3)
        for name, xs in (("gap", gap), ("poll", poll)):
            xs.sort()
            res[f"{us}us {name}"] = {
                "p10": round(xs[len(xs) // 10], 1),
                "median": round(statistics.median(xs), 1),
                "p90": round(xs[(9 * len(xs)) // 10], 1),
            }
    return res


def companion() -> None:
    import time

    import torch

    x = torch.zeros(1, device="cuda")
    print("ready", flush=True)
    while True:
        x.add_(1)
        torch.cuda.synchronize()
        time.sleep(0.002)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--calls", type=int, default=100)
    ap.add_argument("--modes", default="auto,spin,blocking")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--companion", action="store_true")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ns = ap.parse_args()
    if ns.child == "companion":
        companion()
        return
    if ns.child:
        print(json.dumps(child(ns.child, ns.calls)))
        return
    other = None
    if ns.companion:
        other = subprocess.Popen(
            [sys.executable, __file__, "--child", "companion"], stdout=subprocess.PIPE, text=True
        )
        assert other.stdout is not None
        other.stdout.readline()
    out = {}
    for mode in ns.modes.split(","):
        r = subprocess.run(
            [sys.executable, __file__, "--child", mode, "--calls", str(ns.calls)],
            capture_output=True,
            text=True,
            timeout=300,
        )
        if r.returncode != 0:
            print(f"{mode}: failed: {r.stderr[-1500:]}")
            continue
        out[mode] = json.loads(r.stdout.strip().splitlines()[-1])
        for k, v in out[mode].items():
            print(f"{mode:8s} {k:12s} us  {v}", flush=True)
    if other is not None:
        other.kill()
    if ns.json:
        ns.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
