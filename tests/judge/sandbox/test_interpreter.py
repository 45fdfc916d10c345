"""The interpreter dressed as an H100 (judge/sandbox/interpreter.py).

``install()`` changes process-wide state and needs ``TRITON_INTERPRET=1`` before Triton is
imported, so the kernels run in one child process (``SCENARIOS``, written to a file: Triton reads
a kernel's source from its file) that reports each scenario as JSON; the tests read that report.
The last tests grade through the sandboxed runner, as ``kerneldojo grade --device cpu`` does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from judge import grader
from judge.problem import loader
from judge.results import MAX_WARNING_CHARS, MAX_WARNINGS, GradeResult
from judge.verdicts import Verdict

ROOT = Path(__file__).resolve().parents[3]

SCENARIOS = r"""
import json, sys, traceback
import torch

from judge.sandbox import interpreter

interpreter.install()
import triton
import triton.language as tl
from triton.runtime import driver

report = {}


def scenario(fn):
    try:
        report[fn.__name__] = fn()
    except BaseException as e:
        report[fn.__name__] = {"error": f"{type(e).__name__}: {e}", "tb": traceback.format_exc()}
    return fn


# -- the tutorials' way of asking for the device, at import ------------------------------------
def is_cuda():
    return triton.runtime.driver.active.get_current_target().backend == "cuda"


DEVICE = triton.runtime.driver.active.get_active_torch_device()


def get_autotune_config():
    if is_cuda():  # three configs, told apart by ID
        return [triton.Config({"ID": i, "BLOCK": b}, num_warps=4) for i, b in enumerate([64, 32, 16])]
    return [triton.Config({"ID": 9, "BLOCK": 16})]


@triton.autotune(configs=get_autotune_config(), key=["n"])
@triton.jit
def counted(x_ptr, runs_ptr, n, ID: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, offs * 2.0, mask=offs < n)
    if tl.program_id(0) == 0:
        tl.atomic_add(runs_ptr + ID, 1)


@triton.autotune(configs=get_autotune_config(), key=["n"])
@triton.jit
def accumulate(out_ptr, n, ID: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(out_ptr + offs, mask=offs < n) + 1.0, mask=offs < n)


@triton.autotune(configs=get_autotune_config(), key=["n"], reset_to_zero=["out_ptr"])
@triton.jit
def accumulate_reset(out_ptr, n, ID: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(out_ptr + offs, mask=offs < n) + 1.0, mask=offs < n)


@triton.autotune(configs=get_autotune_config(), key=["n"], restore_value=["out_ptr"])
@triton.jit
def accumulate_restore(out_ptr, n, ID: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(out_ptr + offs, mask=offs < n) + 1.0, mask=offs < n)


def keep_small(configs, named_args, **kwargs):
    return [c for c in configs if c.kwargs["BLOCK"] <= 32]


@triton.autotune(configs=get_autotune_config(), key=["n"], prune_configs_by={"early_config_prune": keep_small})
@triton.jit
def pruned(x_ptr, runs_ptr, n, ID: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, offs * 1.0, mask=offs < n)
    if tl.program_id(0) == 0:
        tl.atomic_add(runs_ptr + ID, 1)


@triton.heuristics({"BLOCK": lambda args: triton.next_power_of_2(args["n"])})
@triton.jit
def whole(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, offs + 1.0, mask=offs < n)


# -- the fused-softmax tutorial: persistent rows, a pipelined row loop ---------------------------
@triton.jit
def softmax_kernel(y_ptr, x_ptr, n_rows, n_cols, BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0), num_stages=num_stages):
        offs = tl.arange(0, BLOCK_SIZE)
        mask = offs < n_cols
        x = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=-float("inf"))
        num = tl.exp(x - tl.max(x, axis=0))
        tl.store(y_ptr + row * n_cols + offs, num / tl.sum(num, axis=0), mask=mask)


softmax_tuned = triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE": 65536}, num_warps=8, num_stages=4),  # 786464 B: too much
        triton.Config({"BLOCK_SIZE": 65536}, num_warps=8, num_stages=1),
    ],
    key=["n_cols"],
)(softmax_kernel)


def twice(x):  # a plain Python function: the interpreter calls it, the compiler cannot
    return x * 2


@triton.jit
def calls_python(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, twice(offs * 1.0), mask=offs < n)


@triton.jit
def copy_host_desc(d_in, d_out, BM: tl.constexpr, BN: tl.constexpr):
    pm, pn = tl.program_id(0), tl.program_id(1)
    d_out.store([pm * BM, pn * BN], d_in.load([pm * BM, pn * BN]) + 1)


@triton.jit
def copy_device_desc(src, dst, M, N, BM: tl.constexpr, BN: tl.constexpr):
    d_in = tl.make_tensor_descriptor(src, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    d_out = tl.make_tensor_descriptor(dst, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    pm, pn = tl.program_id(0), tl.program_id(1)
    d_out.store([pm * BM, pn * BN], d_in.load([pm * BM, pn * BN]) * 2)


@scenario
def driver_stand_in():
    target = triton.runtime.driver.active.get_current_target()
    props = driver.active.utils.get_device_properties(DEVICE.index)
    torch_props = torch.cuda.get_device_properties(0)
    return {
        "target": [target.backend, target.arch, target.warp_size],
        "device": str(DEVICE),
        "props": {k: props[k] for k in ("multiprocessor_count", "max_shared_mem", "max_num_regs", "warpSize")},
        "torch_capability": list(torch.cuda.get_device_capability()),
        "torch_sms": torch_props.multi_processor_count,
        "torch_name": torch_props.name,
        "cuda_available": torch.cuda.is_available(),
        "do_bench": triton.testing.do_bench(lambda: None),
        "do_bench_quantiles": triton.testing.do_bench(lambda: None, quantiles=[0.5, 0.2]),
    }


@scenario
def autotune_each_config_once():
    runs = torch.zeros(3, dtype=torch.int32)
    x = torch.zeros(100)
    counted[lambda meta: (triton.cdiv(100, meta["BLOCK"]),)](x, runs, 100)
    first = runs.tolist()
    ok_first = torch.equal(x, torch.arange(100) * 2.0)
    y = torch.zeros(50)
    counted[lambda meta: (triton.cdiv(50, meta["BLOCK"]),)](y, runs, 50)  # a new key: tuned again
    return {
        "configs": [c.kwargs["ID"] for c in counted.configs],
        "after_first_key": first,
        "after_second_key": runs.tolist(),
        "best": counted.best_config.kwargs["ID"],
        "correct": ok_first and torch.equal(y, torch.arange(50) * 2.0),
    }


@scenario
def autotune_side_effects():
    out = {}
    for name, kernel in (("plain", accumulate), ("reset", accumulate_reset), ("restore", accumulate_restore)):
        x = torch.zeros(40)
        kernel[lambda meta: (triton.cdiv(40, meta["BLOCK"]),)](x, 40)
        out[name] = x.unique().tolist()
    return out


@scenario
def autotune_pruned_and_heuristics():
    runs = torch.zeros(3, dtype=torch.int32)
    x = torch.zeros(70)
    pruned[lambda meta: (triton.cdiv(70, meta["BLOCK"]),)](x, runs, 70)
    y = torch.zeros(37)
    whole[(1,)](y, 37)
    return {
        "runs": runs.tolist(),
        "best": pruned.best_config.kwargs["ID"],
        "correct": torch.equal(x, torch.arange(70) * 1.0) and torch.equal(y, torch.arange(37) + 1.0),
    }


@scenario
def shared_memory_fits():
    interpreter.call_warnings()
    x = torch.randn(5, 4097)
    y = torch.empty_like(x)
    softmax_kernel[(3,)](y, x, 5, 4097, BLOCK_SIZE=8192, num_stages=4, num_warps=8)
    return {"correct": bool(torch.allclose(y, torch.softmax(x, 1), atol=1e-6)), "warnings": interpreter.call_warnings()}


@scenario
def shared_memory_too_much():
    x = torch.randn(4, 65536)
    y = torch.zeros_like(x)
    try:
        softmax_kernel[(4,)](y, x, 4, 65536, BLOCK_SIZE=65536, num_stages=4, num_warps=8)
    except triton.runtime.errors.OutOfResources as e:
        return {"raised": type(e).__name__, "message": str(e), "untouched": bool((y == 0).all())}
    return {"raised": None}


@scenario
def autotune_skips_what_does_not_fit():
    x = torch.randn(2, 65536)
    y = torch.empty_like(x)
    softmax_tuned[(2,)](y, x, 2, 65536)
    best = softmax_tuned.best_config
    return {"best_stages": best.num_stages, "correct": bool(torch.allclose(y, torch.softmax(x, 1), atol=1e-6))}


@scenario
def tutorial_warmup():
    x = torch.randn(37, 781)
    y = torch.empty_like(x)
    kernel = softmax_kernel.warmup(y, x, 37, 781, BLOCK_SIZE=1024, num_stages=4, num_warps=8, grid=(1,))
    kernel._init_handles()
    kernel[(5, 1, 1)](y, x, 37, 781, 1024, 4)
    # What NVIDIA's cuobjdump (in Triton's wheel) reads from the same cubin.
    import os, re, subprocess, tempfile

    tool = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "cuobjdump")
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(kernel.asm["cubin"])
        f.flush()
        usage = subprocess.run([tool, "-res-usage", f.name], capture_output=True, text=True).stdout
    regs, stack = re.search(r"REG:(\d+) STACK:(\d+)", usage).groups()
    return {
        "n_regs": kernel.n_regs,
        "n_spills": kernel.n_spills,
        "cuobjdump": [int(regs), int(stack) // 4],
        "shared": kernel.metadata.shared,
        "correct": bool(torch.allclose(y, torch.softmax(x, 1), atol=1e-6)),
    }


@scenario
def compile_error_is_a_warning():
    interpreter.call_warnings()
    x = torch.zeros(8)
    calls_python[(1,)](x, 8, BLOCK=8)
    return {"correct": torch.equal(x, torch.arange(8) * 2.0), "warnings": interpreter.call_warnings()}


@scenario
def tensor_descriptors():
    from triton.tools.tensor_descriptor import TensorDescriptor

    x = torch.arange(40 * 24, dtype=torch.float32).reshape(40, 24)
    y = torch.zeros_like(x)
    copy_host_desc[(3, 2)](TensorDescriptor.from_tensor(x, [16, 16]), TensorDescriptor.from_tensor(y, [16, 16]), BM=16, BN=16)
    host = torch.equal(y, x + 1)
    y.zero_()
    try:
        copy_device_desc[(3, 2)](x, y, 40, 24, BM=16, BN=16)
        without = "ran"
    except RuntimeError as e:
        without = str(e)
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    copy_device_desc[(3, 2)](x, y, 40, 24, BM=16, BN=16)
    return {"host": host, "device_without_allocator": without, "device": torch.equal(y, x * 2)}


@scenario
def budget_spent():
    budget, interpreter.CALL_BUDGET_S = interpreter.CALL_BUDGET_S, -1.0
    x = torch.zeros(16)
    whole[(1,)](x, 9)  # a new specialisation (BLOCK=16): not checked any more
    interpreter.CALL_BUDGET_S = budget
    return {"correct": torch.equal(x[:9], torch.arange(9) + 1.0), "warnings": interpreter.call_warnings()}


@scenario
def compiler_unavailable():
    from triton.backends.nvidia import compiler

    def no_ptxas(*args, **kwargs):
        raise RuntimeError("Cannot find ptxas")

    compiler.get_ptxas = no_ptxas  # as where Triton's wheel lacks its ptxas
    interpreter._state.compiler_works = None  # found out once per runner: here, anew
    x = torch.zeros(8)
    whole[(1,)](x, 5)  # BLOCK=8: a new specialisation, whose compile now fails
    y = torch.zeros(8)
    calls_python[(1,)](y, 8, BLOCK=4)
    return {
        "correct": torch.equal(x[:5], torch.arange(5) + 1.0),
        "warnings": interpreter.call_warnings(),
    }


json.dump(report, open(sys.argv[1], "w"))
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("interpreter")
    script = tmp / "scenarios.py"
    script.write_text(SCENARIOS)
    env = {
        **os.environ,
        "TRITON_INTERPRET": "1",
        "TRITON_CACHE_DIR": str(tmp / "triton-cache"),
        "PYTHONPATH": str(ROOT),
    }
    proc = subprocess.run(
        [sys.executable, str(script), str(tmp / "report.json")],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    result: dict[str, Any] = json.loads((tmp / "report.json").read_text())
    return result


def scenario(report: dict[str, Any], name: str) -> dict[str, Any]:
    got = report[name]
    assert "error" not in got, got.get("tb", got)
    return got


def test_driver_reports_an_h100_and_computes_on_the_cpu(report: dict[str, Any]) -> None:
    got = scenario(report, "driver_stand_in")
    assert got["target"] == ["cuda", 90, 32]
    assert got["device"] == "cpu"
    assert got["props"] == {
        "multiprocessor_count": 132,
        "max_shared_mem": 232448,
        "max_num_regs": 65536,
        "warpSize": 32,
    }
    assert got["torch_capability"] == [9, 0]
    assert got["torch_sms"] == 132
    assert "H100" in got["torch_name"]
    assert got["cuda_available"] is False
    assert got["do_bench"] == 1.0
    assert got["do_bench_quantiles"] == [1.0, 1.0]


def test_autotune_runs_each_config_once_then_the_first(report: dict[str, Any]) -> None:
    got = scenario(report, "autotune_each_config_once")
    assert got["configs"] == [0, 1, 2]  # the CUDA list, chosen at import from the target
    assert got["after_first_key"] == [2, 1, 1]  # benchmark: each once; then the first again
    assert got["after_second_key"] == [3, 1, 1]  # a new key: configs only checked, first runs
    assert got["best"] == 0
    assert got["correct"]


def test_autotune_hooks_behave_as_on_a_gpu(report: dict[str, Any]) -> None:
    got = scenario(report, "autotune_side_effects")
    # Three configs benchmarked and the winner run: an accumulating kernel without
    # reset_to_zero adds four times, as on a GPU.
    assert got["plain"] == [4.0]
    assert got["reset"] == [1.0]
    assert got["restore"] == [1.0]


def test_prune_configs_by_and_heuristics(report: dict[str, Any]) -> None:
    got = scenario(report, "autotune_pruned_and_heuristics")
    assert got["runs"] == [0, 2, 1]  # BLOCK 64 pruned; the first that is left wins
    assert got["best"] == 1
    assert got["correct"]


def test_a_kernel_within_the_h100s_shared_memory_runs_without_warnings(
    report: dict[str, Any],
) -> None:
    got = scenario(report, "shared_memory_fits")
    assert got["correct"]
    assert got["warnings"] == []


def test_a_kernel_over_the_h100s_shared_memory_fails_as_on_the_gpu(report: dict[str, Any]) -> None:
    got = scenario(report, "shared_memory_too_much")
    assert got["raised"] == "OutOfResources"
    message = got["message"]
    # The numbers Triton 3.6 reported for this kernel on an H100 (docs/triton.md).
    assert "softmax_kernel(BLOCK_SIZE=65536, num_stages=4, num_warps=8)" in message
    assert "786464 bytes of shared memory" in message
    assert "232448" in message
    assert got["untouched"]  # refused before running, as the GPU would


def test_the_autotuner_skips_a_config_that_does_not_fit(report: dict[str, Any]) -> None:
    got = scenario(report, "autotune_skips_what_does_not_fit")
    assert got["best_stages"] == 1
    assert got["correct"]


def test_warmup_gives_the_sm90_kernel_and_launching_it_interprets(report: dict[str, Any]) -> None:
    got = scenario(report, "tutorial_warmup")
    assert 0 < got["n_regs"] <= 255
    assert [got["n_regs"], got["n_spills"]] == got["cuobjdump"]
    assert got["shared"] > 0
    assert got["correct"]


def test_a_kernel_that_does_not_compile_for_sm90_is_a_warning(report: dict[str, Any]) -> None:
    got = scenario(report, "compile_error_is_a_warning")
    assert got["correct"]
    assert len(got["warnings"]) == 1
    assert got["warnings"][0].startswith("calls_python(BLOCK=8): the interpreter ran it, but")
    assert "Unsupported function referenced" in got["warnings"][0]


def test_tensor_descriptors(report: dict[str, Any]) -> None:
    got = scenario(report, "tensor_descriptors")
    assert got["host"]
    assert "no allocator was set" in got["device_without_allocator"]  # as the GPU's launch says
    assert got["device"]


def test_an_unchecked_kernel_is_a_warning(report: dict[str, Any]) -> None:
    got = scenario(report, "budget_spent")
    assert got["correct"]
    assert any("ran without being checked" in w for w in got["warnings"])


def test_runner_warnings_are_kept_as_untrusted_input() -> None:
    res = GradeResult(Verdict.ACCEPTED, "matmul", "triton", "cpu-interpreter")
    for w in [None, 3, {"a": 1}, "", "x" * 10_000, "same", "same"]:
        res.add_warning(w)
    assert res.warnings == ["x" * MAX_WARNING_CHARS, "same"]
    for i in range(100):
        res.add_warning(f"w{i}")
    assert len(res.warnings) == MAX_WARNINGS
    assert res.to_dict()["warnings"] == res.warnings


def test_no_compiler_here_is_a_warning_not_a_verdict(report: dict[str, Any]) -> None:
    got = scenario(report, "compiler_unavailable")
    assert got["correct"]
    assert got["warnings"] == [
        "whole: not checked against an H100's limits: Triton cannot compile for sm_90 here "
        "(RuntimeError: Cannot find ptxas)",
        "calls_python: not checked against an H100's limits: Triton cannot compile for sm_90 "
        "here (RuntimeError: Cannot find ptxas)",
    ]


@pytest.mark.timeout(900)
def test_grading_the_autotuned_matmul_on_the_cpu() -> None:
    source = (ROOT / "problems/matmul/solutions/accepted/triton_autotuned.py").read_text()
    res = grader.grade(loader.resolve("matmul"), source, "triton", device="cpu", mode="run")
    assert res.verdict == Verdict.ACCEPTED, res.message
    assert res.warnings == []


@pytest.mark.timeout(900)
def test_grading_a_softmax_over_the_shared_memory_on_the_cpu() -> None:
    path = ROOT / "problems/softmax/solutions/rejected/runtime_error_shared_memory.py"
    res = grader.grade(loader.resolve("softmax"), path.read_text(), "triton", device="cpu")
    assert res.verdict == Verdict.RUNTIME_ERROR
    assert "needs 786464 bytes of shared memory per block, the GPU has 232448" in res.message
    # The narrower cases ran and passed; the grading stopped at the first 65536-wide launch.
    assert res.cases and all(c.passed for c in res.cases)
