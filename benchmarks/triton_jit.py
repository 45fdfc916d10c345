#!/usr/bin/env python3
"""Where a Triton submission's first launches spend their time, in a fresh process.

    python3 benchmarks/triton_jit.py [--json out.json]

A runner's Triton cache starts empty (a private /tmp), so every kernel a submission launches
is compiled there: Triton's front and back end, ptxas, and, on Triton versions that generate
a C launcher for each kernel signature (3.6), a C compiler run for that launcher. This script
times, in one fresh process with an empty cache: CUDA start-up, a first kernel (as the
runner's holding kernel is), then the vector-add sample with the argument patterns the tests
give it (n divisible by 16, n = 1, n odd), and the time spent in the C compiler for launchers.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from typing import Any

os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="kd-jit-")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--json")
    ns = ap.parse_args()
    out: dict[str, float | str] = {}
    t = time.perf_counter()
    import torch
    import triton
    import triton.language as tl
    from triton.runtime import build

    out["import_s"] = time.perf_counter() - t
    out["triton"] = triton.__version__
    builds: list[tuple[str, float]] = []
    if hasattr(build, "_build"):
        orig = build._build

        def timed(name, *a, **k):  # type: ignore[no-untyped-def]
            t0 = time.perf_counter()
            r = orig(name, *a, **k)
            builds.append((name, time.perf_counter() - t0))
            return r

        build._build = timed

    t = time.perf_counter()
    torch.zeros(1, device="cuda")
    torch.cuda.synchronize()
    out["cuda_init_s"] = time.perf_counter() - t

    @triton.jit  # type: ignore[untyped-decorator]
    def first(x_ptr, n, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)

    @triton.jit  # type: ignore[untyped-decorator]
    def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(
            c_ptr + offs,
            tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask),
            mask=mask,
        )

    def launch(label: str, kernel: Any, args: tuple[torch.Tensor, ...], n: int) -> None:
        nb = len(builds)
        t0 = time.perf_counter()
        kernel[(triton.cdiv(n, 1024),)](*args, n, BLOCK=1024)
        torch.cuda.synchronize()
        out[f"{label}_s"] = time.perf_counter() - t0
        out[f"{label}_cc_s"] = sum(b for _, b in builds[nb:])
        out[f"{label}_cc_runs"] = len(builds) - nb

    x = torch.zeros(4096, device="cuda")
    launch("first_kernel", first, (x,), 4096)
    a, b, c = (torch.rand(4096, device="cuda") for _ in range(3))
    launch("va_div16", add_kernel, (a, b, c), 4096)
    launch("va_div16_again", add_kernel, (a, b, c), 4096)
    launch("va_n1", add_kernel, (a, b, c), 1)
    launch("va_odd", add_kernel, (a, b, c), 4095)
    out["cc_names"] = ",".join(n for n, _ in builds)
    for k, v in out.items():
        print(f"{k:24s} {v:.4f}" if isinstance(v, float) else f"{k:24s} {v}")
    if ns.json:
        with open(ns.json, "w") as f:
            json.dump(out, f, indent=1)
    sys.exit(0)


if __name__ == "__main__":
    main()
