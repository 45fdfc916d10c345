"""Triton's compile cut short (judge/build/stages.py): a kernel over the shared memory fails after
``llir``, before ptxas; ``lowered_only`` stops there. In a child process, with the interpreter
dressed as an H100 (whose ``install`` installs the cut), compiling real sm_90 kernels."""

from __future__ import annotations

from typing import Any

import pytest

from tests.child_report import run_child

CHILD = r"""
import json
import torch

from judge.sandbox import interpreter

interpreter.install()
import triton
import triton.language as tl
from triton.backends.nvidia.compiler import CUDABackend
from triton.runtime.errors import OutOfResources
from triton.runtime.jit import JITFunction

from judge.build import stages

ptxas_runs = []
make_cubin = CUDABackend.make_cubin


def counted(self, *args, **kwargs):
    ptxas_runs.append(1)
    return make_cubin(self, *args, **kwargs)


CUDABackend.make_cubin = counted


def rows(y_ptr, x_ptr, n_rows, n_cols, BLOCK: tl.constexpr, STAGES: tl.constexpr):
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0), num_stages=STAGES):
        offs = tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, other=-float("inf"))
        e = tl.exp(x - tl.max(x, axis=0))
        tl.store(y_ptr + row * n_cols + offs, e / tl.sum(e, axis=0), mask=offs < n_cols)


kernel = JITFunction(rows)
x = torch.empty(4, 65536)
report = {}
with interpreter._jit_world(rows.__globals__):
    try:  # three rows of 65536 floats in flight: 786464 bytes per block
        kernel.warmup(x, x, 4, 65536, BLOCK=65536, STAGES=4, num_warps=8, grid=(1,))
        report["too_big"] = "compiled"
    except OutOfResources as e:
        report["too_big"] = [e.required, e.limit, e.name]
    report["too_big_ptxas"] = len(ptxas_runs)

    try:
        with stages.lowered_only():
            kernel.warmup(x, x, 4, 1024, BLOCK=1024, STAGES=2, num_warps=4, grid=(1,))
        report["lowered"] = "compiled"
    except stages.Lowered as e:
        report["lowered"] = {"shared": e.metadata["shared"], "scratch": e.metadata.get("global_scratch_size")}
    report["lowered_ptxas"] = len(ptxas_runs)

    whole = kernel.warmup(x, x, 4, 1024, BLOCK=1024, STAGES=2, num_warps=4, grid=(1,))
    report["whole"] = {"cubin": "cubin" in whole.asm, "shared": whole.metadata.shared}
    report["whole_ptxas"] = len(ptxas_runs)
print("REPORT " + json.dumps(report))
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_child(tmp_path_factory.mktemp("stages"), CHILD, TRITON_INTERPRET="1")


def test_a_kernel_over_the_shared_memory_fails_before_ptxas(report: dict[str, Any]) -> None:
    assert report["too_big"] == [786464, 232448, "shared memory"]
    assert report["too_big_ptxas"] == 0


def test_lowered_only_stops_after_llir_with_the_metadata(report: dict[str, Any]) -> None:
    lowered = report["lowered"]
    assert lowered["scratch"] == 0  # known there too: the CPU check reads it
    assert 0 < lowered["shared"] <= 232448
    assert report["lowered_ptxas"] == 0


def test_a_kernel_that_fits_compiles_to_the_end(report: dict[str, Any]) -> None:
    assert report["whole"]["cubin"] is True
    assert report["whole"]["shared"] == report["lowered"]["shared"]
    assert report["whole_ptxas"] == 1
