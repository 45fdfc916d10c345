#!/usr/bin/env python3
"""Where a Triton sample's compile time goes, outside the sandbox (judge/build/precompile.py).

    python3 benchmarks/precompile_profile.py --problem reduction --sample triton_fast.py

In one process with a fresh Triton cache: the ahead-of-time pass over every test and benchmark
case (each placeholder call's host time, each compile as it finishes), then every case called
for real, timing the calls that still compiled something. Then the same with the cache the
first pass filled, as a resubmission reads it.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--problem", required=True)
    ap.add_argument("--sample", default="triton_fast.py")
    ns = ap.parse_args()
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="kd-profile-"))
    import torch

    from judge.build import autotune, precompile
    from judge.problem import loader

    p = loader.resolve(ns.problem)
    path = next(s.path for s in p.samples if s.path.name == ns.sample)
    spec = importlib.util.spec_from_file_location("solution", path)
    if spec is None or spec.loader is None:
        sys.exit(f"{path}: not a Python file that can be imported")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    cases = [(c.name, precompile.placeholder(p, c, autotune.TUNE_FIRST)) for c in p.tests]
    cases += [(c.name, precompile.placeholder(p, c, autotune.TUNE_FULL)) for c in p.benchmarks]
    t0 = time.monotonic()

    def invoke(args: list[Any]) -> None:
        t = time.monotonic()
        try:
            mod.solve(*args)
        finally:
            print(f"  placeholder call {time.monotonic() - t:7.3f} s", flush=True)

    def report(done: int, total: int) -> None:
        print(f"  {time.monotonic() - t0:7.3f} s: compiled {done} of {total}", flush=True)

    counts = precompile.run(invoke, [c for _, c in cases], torch, "cuda", report)
    print(f"ahead of time: {counts}", flush=True)
    for name, c in cases:
        args = precompile._args(c, torch, "cuda")
        with autotune.policy(c["tune"]):
            t = time.monotonic()
            mod.solve(*args)
            torch.cuda.synchronize()
        dt = time.monotonic() - t
        print(f"  real call {name}: {dt:.3f} s{'  <- compiled' if dt > 0.2 else ''}", flush=True)


if __name__ == "__main__":
    main()
