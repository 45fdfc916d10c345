"""The judge's autotune policy (autotune.py) and the parallel compile ahead of the tests
(precompile.py), with Triton's own Autotuner and JITFunction.

Both run in the runner on a GPU. Here they run in a child process (Triton's interpreter state is
process-wide) with the interpreter dressed as an H100 (interpreter.py): the autotuner's calls
run on the CPU, and JITFunction warm-ups compile real sm_90 kernels with Triton's compiler.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from judge.build import autotune
from tests.child_report import run_child

CHILD = r"""
import json, time
import torch

from judge.sandbox import interpreter

interpreter.install()
import triton
import triton.language as tl
from triton.runtime.jit import JITFunction

from judge.build import autotune, precompile

report = {}


@triton.autotune(
    configs=[triton.Config({"ID": i, "BLOCK": b}) for i, b in enumerate([64, 32, 16])],
    key=["n"],
)
@triton.jit
def tuned(x_ptr, runs_ptr, n, ID: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, offs * 2.0, mask=offs < n)
    if tl.program_id(0) == 0:
        tl.atomic_add(runs_ptr + ID, 1)


def call(n, runs):
    x = torch.zeros(n)
    tuned[lambda m: (triton.cdiv(n, m["BLOCK"]),)](x, runs, n)
    return torch.equal(x, torch.arange(n) * 2.0)


runs = torch.zeros(3, dtype=torch.int32)
with autotune.policy(autotune.TUNE_FIRST):
    ok = call(100, runs)
report["first"] = {"ok": ok, "runs": runs.tolist(), "chosen": tuned.cache[(100, "torch.float32", "torch.int32")].kwargs["ID"]}

runs.zero_()
seen = []
with autotune.policy(autotune.TUNE_FULL, lambda d, t: seen.append([d, t])):
    ok = call(100, runs)  # the same key: tests' choice forgotten, tuned afresh
report["full"] = {"ok": ok, "runs": runs.tolist(), "progress": seen}

runs.zero_()
ok = call(100, runs)  # no policy: the cache holds the tuned winner
report["after"] = {"ok": ok, "runs": runs.tolist()}


# -- precompile: warm-ups of a JITFunction compiled for sm_90 in threads ----------------------
def scale(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)


kernel = JITFunction(scale)


def solve(x, n):
    if n == 5:
        raise ValueError("this case fails on placeholders")
    if n == 7:
        while True:  # waits for a kernel that never runs
            pass
    kernel[(triton.cdiv(n, 128),)](x, n, BLOCK=128)


precompile.CASE_HOST_S = 0.5
cases = [
    {"args": [{"kind": "tensor", "dtype": "float32", "shape": [n]}, {"kind": "int", "value": n}]}
    for n in (1, 17, 32, 33, 4096, 5, 7)
]
progress = []
with interpreter._jit_world(scale.__globals__):
    counts = precompile.run(lambda a: solve(*a), cases, torch, "cpu", lambda d, t: progress.append([d, t]))
    compiled = sum(len(c[0]) for c in kernel.device_caches.values())
    t0 = time.monotonic()
    kernel.warmup(torch.empty(33), 33, BLOCK=128, grid=(1,))  # n = 33: "other", compiled ahead
    again_s = time.monotonic() - t0
    compiled_after = sum(len(c[0]) for c in kernel.device_caches.values())
report["precompile"] = {
    "counts": counts, "progress": progress, "compiled": compiled,
    "compiled_after": compiled_after, "again_s": again_s,
}

# -- precompile does not wait for a compile that does not end: the tests start without it ------
import threading

import triton.compiler

gated = JITFunction(scale)
gate = threading.Event()
compile_now = triton.compiler.compile


def held_compile(*args, **kwargs):  # a ptxas run that takes minutes, until the gate opens
    gate.wait(60)
    return compile_now(*args, **kwargs)


triton.compiler.compile = held_compile  # taken by the JITFunction's first launch (create_binder)
precompile.WAIT_S = 0.2
one = [{"args": [{"kind": "tensor", "dtype": "float32", "shape": [64]}, {"kind": "int", "value": 64}]}]
with interpreter._jit_world(scale.__globals__):
    held = precompile.run(lambda a: gated[(1,)](a[0], a[1], BLOCK=128), one, torch, "cpu", lambda d, t: None)
    waiting_when_done = not gate.is_set()
    triton.compiler.compile = compile_now
    gate.set()
    later = gated.warmup(torch.empty(64), 64, BLOCK=128, grid=(1,))  # waits for that compile
report["held"] = {
    "counts": held, "waiting_when_done": waiting_when_done,
    "compiled": sum(len(c[0]) for c in gated.device_caches.values()),
    "later_has_cubin": "cubin" in getattr(later, "asm", {}),
}
print("REPORT " + json.dumps(report))
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_child(tmp_path_factory.mktemp("autotune"), CHILD, TRITON_INTERPRET="1")


def test_first_working_times_nothing_and_skips_failing_configs() -> None:
    calls: list[int] = []

    def call(i: int, fail: bool = False) -> Any:
        def run() -> None:
            calls.append(i)
            if fail:
                raise RuntimeError("out of resources")

        return run

    bench = autotune.first_working()
    with pytest.raises(RuntimeError):  # Triton's _bench turns this into infinity
        bench(call(0, fail=True), quantiles=(0.5, 0.2, 0.8))
    assert bench(call(1), quantiles=(0.5, 0.2, 0.8)) == [1.0, 1.0, 1.0]
    assert bench(call(2), quantiles=(0.5, 0.2, 0.8)) == [math.inf] * 3
    assert bench(call(3)) == math.inf
    assert calls == [0, 1]  # the configs after the first working one never ran


def test_tests_run_the_first_config_only(report: dict[str, Any]) -> None:
    first = report["first"]
    assert first["ok"] is True
    # Config 0 ran for the "benchmark" (once, untimed) and for the call; 1 and 2 never.
    assert first["runs"] == [2, 0, 0]
    assert first["chosen"] == 0


def test_benchmarks_tune_every_config_afresh_with_progress(report: dict[str, Any]) -> None:
    full = report["full"]
    assert full["ok"] is True
    # Each config timed (the interpreter's benchmarker runs each once), then the winner runs.
    assert sum(full["runs"]) == 4 and min(full["runs"]) >= 1
    assert full["progress"] == [[1, 3], [2, 3], [3, 3]]
    assert report["after"]["runs"] == [1, 0, 0]  # cached winner, no tuning


def test_precompile_compiles_each_specialisation_once_in_threads(report: dict[str, Any]) -> None:
    pre = report["precompile"]
    counts = pre["counts"]
    # n = 1 (constant), 17 and 33 (one "other" kernel), 32 and 4096 (multiples of 16): three.
    assert counts["kernels"] == 3, counts
    assert counts["failed"] == 0
    assert pre["compiled"] == 3
    assert pre["progress"][-1] == [3, 3]
    # The failing case and the one that spins were cut short, not fatal.
    assert counts["cases_cut_short"] == 2
    # The real call at n = 33 found its kernel: nothing new compiled.
    assert pre["compiled_after"] == 3


def test_precompile_does_not_wait_for_a_compile_that_does_not_end(report: dict[str, Any]) -> None:
    held = report["held"]
    # precompile.run returned while the compile was still held (the tests would start), and
    # said so; the real call then waited for that same compile instead of starting another.
    assert held["waiting_when_done"] is True
    assert held["counts"]["kernels"] == 1
    assert held["counts"]["pending"] == 1
    assert held["counts"]["failed"] == 0
    assert held["later_has_cubin"] is True
    assert held["compiled"] == 1
