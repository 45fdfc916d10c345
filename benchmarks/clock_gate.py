#!/usr/bin/env python3
"""The SM clock across a timed call, and what a quiet pause before the call does to it.

    python3 benchmarks/clock_gate.py [--calls 30] [--quiet 0,0.01,0.05,0.2] [--json out.json]

The judge times each call behind a holding kernel (``judge/timing/hold.py``), which now also
reads the SM clock across the call (``Timed.sm_ghz``: SM cycles over global-timer
nanoseconds, stamped on one SM as the hold lets the call go and again after the device-wide
end). This script answers three questions on the GPU it runs on, without the judge's processes:

1. *Noise*: how precise is that reading for a call of a given length? A spinning kernel of
   50 us to 3 ms is timed ``--calls`` times on an otherwise idle GPU.
2. *The judge's loop*: the samples of flash-attention (d=64, d=128) and matmul (4096^3) are
   timed as the referee times them: fresh seeded inputs, the float64 reference (100 ms of DGEMM
   for flash-attention), fill, L2 flush, then the call. For each pause (``--quiet``, seconds,
   idle GPU just before the call), it prints the median time, the clock across the calls, and
   the median of the calls at full clock only.
3. *Idle*: the clock of a call after the GPU sat idle for 0.5 s and 2 s (does it fall back to
   an idle clock that the call then ramps up from?).
4. *Recovery* (``--phase recovery``): the flash-attention editorial back to back for
   ``--load-s`` seconds (the load that slowed later calls by 2-6% on 2026-11-24), with the
   in-call clock and the referee's probe (``judge/timing/clock.py``) read along the way, then
   the probe every 10 ms after the load stops: how low the idle clock sits and how long it
   takes to come back, which sets ``clock.RECOVERY_S`` and ``clock.MAX_WAIT_S``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import triton
import triton.language as tl

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from judge import device  # noqa: E402
from judge.problem import loader  # noqa: E402
from judge.timing import measure  # noqa: E402
from judge.timing.clock import ClockProbe  # noqa: E402
from judge.timing.hold import Hold, _globaltimer  # noqa: E402


@triton.jit
def spin(out_ptr, ns):  # type: ignore[no-untyped-def]
    """Each block spins ``ns`` nanoseconds of the global timer (also used by sync_latency.py)."""
    t0 = _globaltimer()
    t1 = t0
    while t1 - t0 < ns:
        t1 = _globaltimer()
    tl.store(out_ptr + tl.program_id(0), t1 - t0)


def _load(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def noise(hold: Hold, calls: int) -> list[dict[str, Any]]:
    import torch

    sms = torch.cuda.get_device_properties(0).multi_processor_count
    out = torch.zeros(4 * sms, dtype=torch.int64, device="cuda")
    rows = []
    for us in (50, 200, 1000, 3000):
        ghz, ms = [], []
        for _ in range(calls):
            t = hold.time_call(lambda: spin[(4 * sms,)](out, us * 1000))  # noqa: B023
            ms.append(t.stream_ms)
            if t.sm_ghz is not None:
                ghz.append(t.sm_ghz)
            time.sleep(0.002)
        row = {
            "spin_us": us,
            "ms": round(statistics.median(ms), 4),
            "ghz_median": round(statistics.median(ghz), 4) if ghz else None,
            "ghz_min": round(min(ghz), 4) if ghz else None,
            "ghz_max": round(max(ghz), 4) if ghz else None,
            "ghz_cv_pct": round(100 * statistics.pstdev(ghz) / statistics.fmean(ghz), 3)
            if len(ghz) > 1
            else None,
            "missing": calls - len(ghz),
        }
        print(f"noise: {row}", flush=True)
        rows.append(row)
    return rows


def judge_loop(
    hold: Hold, slug: str, sample: str, case_index: int, quiet: float, calls: int, max_ghz: float
) -> dict[str, Any]:
    import torch

    problem = loader.load_problem(REPO / "problems" / slug)
    ref = loader.load_reference(problem)
    case = problem.benchmarks[case_index]
    mod = _load(REPO / "problems" / slug / "solutions" / "accepted" / sample)
    flusher = measure.L2Flusher.shared()
    args: dict[str, Any] = {}
    for a in problem.args:
        if a.is_tensor:
            shape = problem.shape(a, case.params)
            args[a.name] = torch.empty(shape, dtype=getattr(torch, a.dtype), device="cuda")
        else:
            args[a.name] = case.params[a.name]
    order = [a.name for a in problem.args]

    def call() -> None:
        mod.solve(*[args[n] for n in order])

    rows = []
    for i in range(calls + 2):
        gen = torch.Generator(device="cuda")
        gen.manual_seed(1000 + i)
        inputs = loader.call_generate(
            ref, problem, case.params, case.kind, gen, torch.device("cuda")
        )
        ref.reference({k: v.clone() for k, v in inputs.items()}, dict(case.params))
        for a in problem.inputs:
            args[a.name].copy_(inputs[a.name])
        flusher.flush()
        torch.cuda.synchronize()
        if quiet:
            time.sleep(quiet)
        t = hold.time_call(call)
        if i >= 2:
            rows.append((t.stream_ms, t.sm_ghz))
    ms = [m for m, _ in rows]
    ghz = [g for _, g in rows if g is not None]
    full = [m for m, g in rows if g is not None and g >= 0.985 * max_ghz]
    res = {
        "problem": slug,
        "sample": sample,
        "case": case.name,
        "quiet_s": quiet,
        "median_ms": round(statistics.median(ms), 4),
        "ghz_median": round(statistics.median(ghz), 4) if ghz else None,
        "ghz_min": round(min(ghz), 4) if ghz else None,
        "below_98_5": sum(1 for g in ghz if g < 0.985 * max_ghz),
        "median_full_clock_ms": round(statistics.median(full), 4) if full else None,
        "calls": [(round(m, 4), round(g, 4) if g else None) for m, g in rows],
    }
    summary = {k: v for k, v in res.items() if k != "calls"}
    print(f"judge loop: {summary}", flush=True)
    return res


def idle(hold: Hold, slug: str, sample: str, case_index: int) -> list[dict[str, Any]]:
    import torch

    problem = loader.load_problem(REPO / "problems" / slug)
    case = problem.benchmarks[case_index]
    mod = _load(REPO / "problems" / slug / "solutions" / "accepted" / sample)
    args: list[Any] = []  # tensors and scalars, in the signature's order
    for a in problem.args:
        if a.is_tensor:
            shape = problem.shape(a, case.params)
            args.append(torch.randn(shape, device="cuda").to(getattr(torch, a.dtype)))
        else:
            args.append(case.params[a.name])
    rows = []
    for pause in (0.5, 2.0, 0.5, 2.0):
        torch.cuda.synchronize()
        time.sleep(pause)
        first, second = (hold.time_call(lambda: mod.solve(*args)) for _ in range(2))
        row = {
            "idle_s": pause,
            "first": (first.stream_ms, first.sm_ghz),
            "second": (second.stream_ms, second.sm_ghz),
        }
        print(f"idle: {row}", flush=True)
        rows.append(row)
    return rows


def recovery(hold: Hold, load_s: float, reps: int) -> list[dict[str, Any]]:
    import torch

    probe = ClockProbe.shared()
    b, h, s, d = 16, 16, 4096, 64
    mod = _load(REPO / "problems" / "flash-attention" / "solutions" / "accepted" / "triton_fast.py")
    q, k, v, o = (torch.randn(b, h, s, d, device="cuda", dtype=torch.float16) for _ in range(4))
    rows = []
    for rep in range(reps):
        torch.cuda.synchronize()
        time.sleep(2.0)
        best0 = probe.read()
        trace = []
        t0 = time.monotonic()
        n = 0
        while time.monotonic() - t0 < load_s:
            t = hold.time_call(lambda: mod.solve(q, k, v, o, b, h, s, d))
            n += 1
            if n % 25 == 0:
                trace.append(
                    (round(time.monotonic() - t0, 3), round(t.stream_ms, 4), t.sm_ghz, probe.read())
                )
        torch.cuda.synchronize()
        t_end = time.monotonic()
        after = []
        while time.monotonic() - t_end < 1.0:
            after.append((round(time.monotonic() - t_end, 4), round(probe.read(), 4)))
            time.sleep(0.01)
        back = next((t for t, g in after if g >= 0.99 * probe.best), None)
        row = {
            "rep": rep,
            "probe_before_load": round(best0, 4),
            "best": round(probe.best, 4),
            "calls": n,
            "trace": trace,
            "after": after,
            "back_to_99pct_s": back,
        }
        print(
            f"recovery {rep}: probe before {best0:.4f}; during load (s, ms, in-call GHz, probe GHz)"
            f" {trace[:2]} ... {trace[-3:]}; after the load {after[:6]} ...; back at 99% of "
            f"{probe.best:.4f} after {back} s",
            flush=True,
        )
        rows.append(row)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--calls", type=int, default=30)
    ap.add_argument("--quiet", default="0,0.01,0.05,0.2")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--phase", default="noise,idle,loop,recovery")
    ap.add_argument("--load-s", type=float, default=3.0)
    ap.add_argument("--reps", type=int, default=3)
    ns = ap.parse_args()
    phases = set(ns.phase.split(","))
    import torch

    torch.zeros(1, device="cuda")
    hold = Hold.shared()
    clocks = device.clocks()
    max_ghz = int(str(clocks.get("sm_max_mhz") or 0)) / 1e3 or 1.98
    print(f"{torch.cuda.get_device_name()}  clocks {clocks}", flush=True)
    result: dict[str, Any] = {"gpu": torch.cuda.get_device_name(), "clocks": clocks}
    if "noise" in phases:
        result["noise"] = noise(hold, ns.calls)
    if "idle" in phases:
        result["idle"] = idle(hold, "flash-attention", "triton_fast.py", 0)
    if "recovery" in phases:
        result["recovery"] = recovery(hold, ns.load_s, ns.reps)
    loops = []
    for q in (float(x) for x in ns.quiet.split(",") if "loop" in phases):
        for slug, sample, case in (
            ("flash-attention", "triton_fast.py", 0),
            ("flash-attention", "triton_fast.py", 1),
            ("matmul", "triton_fast.py", 0),
        ):
            loops.append(judge_loop(hold, slug, sample, case, q, ns.calls, max_ghz))
    result["judge_loop"] = loops
    if ns.json:
        ns.json.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
