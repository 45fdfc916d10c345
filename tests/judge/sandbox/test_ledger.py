"""The kernel ledger (judge/sandbox/ledger.py, kd_ledger.c): the real injection library, built as
a GPU worker builds it, driven by a stand-in for libcupti that calls its callback as the CUDA
driver would at each launch. The real CUPTI under a real driver is checked on the GPU
(scripts/gpu_check.py --phase adversarial: the ``shortcuts/ledger_*`` entries)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

from judge.languages import kernel_names
from judge.results import GradeResult
from judge.sandbox import ledger
from judge.sandbox.channel import Channel
from judge.session import Stop
from judge.verdicts import Verdict

FAKE_CUPTI = r"""
#include <cupti.h>
#include <string.h>
static CUpti_CallbackFunc callback;
static int enabled;
CUptiResult cuptiSubscribe(CUpti_SubscriberHandle *s, CUpti_CallbackFunc cb, void *ud) {
    (void)ud; *s = (CUpti_SubscriberHandle)1; callback = cb; return CUPTI_SUCCESS;
}
CUptiResult cuptiEnableCallback(uint32_t on, CUpti_SubscriberHandle s, CUpti_CallbackDomain d,
                                CUpti_CallbackId id) {
    (void)s; (void)d; (void)id; enabled += on ? 1 : 0; return CUPTI_SUCCESS;
}
int kd_fake_enabled(void) { return enabled; }
static void fire(CUpti_CallbackDomain d, CUpti_CallbackId id, const char *name) {
    CUpti_CallbackData info; memset(&info, 0, sizeof info);
    info.callbackSite = CUPTI_API_ENTER; info.symbolName = name;
    callback(NULL, d, id, &info);
    info.callbackSite = CUPTI_API_EXIT; callback(NULL, d, id, &info);  /* not written again */
}
void kd_fake_launch(const char *name) {
    fire(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, name);
}
void kd_fake_runtime_launch(const char *name) {
    fire(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, name);
}
void kd_fake_graph(void) {
    fire(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000, NULL);
}
"""

# The process the driver would have loaded the ledger into: it starts the injection as the
# driver does, then launches what argv says, through the stand-in's callback.
CHILD = textwrap.dedent(
    """
    import ctypes, json, sys
    inj = ctypes.CDLL(sys.argv[1])
    inj.InitializeInjection()
    fake = ctypes.CDLL(sys.argv[2])  # the handle the injection opened: the same library
    for step in json.loads(sys.argv[3]):
        if step == "wait":
            print("waiting", flush=True)
            sys.stdin.readline()
        elif step == "graph":
            fake.kd_fake_graph()
        elif step.startswith("rt:"):
            fake.kd_fake_runtime_launch(step[3:].encode())
        else:
            fake.kd_fake_launch(step.encode())
    print(fake.kd_fake_enabled())
    """
)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    os.environ.setdefault("KERNELDOJO_CACHE", str(tmp_path_factory.mktemp("cache")))
    lib = ledger.library()
    assert lib.path is not None, lib.why
    include = ledger._include_dir()
    assert include is not None
    folder = tmp_path_factory.mktemp("fake")
    src = folder / "fake_cupti.c"
    src.write_text(FAKE_CUPTI)
    fake = folder / "libfakecupti.so"
    subprocess.run(
        ["cc", "-shared", "-fPIC", f"-I{include}", str(src), "-o", str(fake)], check=True
    )
    return lib.path, str(fake)


def _launch(
    built: tuple[str, str], steps: list[str], cupti: str | None = None, feed: bool = False
) -> tuple[ledger.Reader, subprocess.Popen[str]]:
    r, w = os.pipe()
    env = {**os.environ, "KD_LEDGER_FD": str(w), "KD_CUPTI_PATHS": cupti or built[1]}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, built[0], built[1], json.dumps(steps)],
        env=env,
        pass_fds=(w,),
        stdin=subprocess.PIPE if feed else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
    )
    os.close(w)
    return ledger.Reader(r), child


def test_each_kernel_name_is_written_once_with_the_status_first(built: tuple[str, str]) -> None:
    steps = ["add_kernel", "add_kernel", "rt:_ZN2at6native_add", "add_kernel", "graph", "graph"]
    reader, child = _launch(built, steps)
    out, _ = child.communicate(timeout=60)
    entries = reader.take()
    assert entries.status == f"ok {built[1]}"
    assert entries.names == ["add_kernel", "_ZN2at6native_add"]  # driver and runtime launches
    assert entries.graph and not entries.lost
    assert int(out) >= 20  # every launch callback was enabled, driver's and runtime's


def test_without_cupti_it_says_off_and_why(built: tuple[str, str]) -> None:
    reader, child = _launch(built, ["add_kernel"], cupti="/nonexistent/libcupti.so")
    child.communicate(timeout=60)
    entries = reader.take()
    assert entries.status is not None and entries.status.startswith("off /nonexistent")
    assert entries.names == []


def test_a_full_pipe_drops_names_and_says_lost(built: tuple[str, str]) -> None:
    """A launch never blocks on the referee: the names that did not fit are reported lost."""
    many = [f"kernel_{i:05d}_" + "x" * 200 for i in range(600)]  # ~130 KB, twice a pipe
    reader, child = _launch(built, [*many, "wait", "last_kernel"], feed=True)
    assert child.stdin is not None and child.stdout is not None
    assert child.stdout.readline().strip() == "waiting"  # every name launched; the pipe is full
    first = reader.take()  # the referee reads what fitted: the pipe is empty again
    assert 0 < len(first.names) < len(many)  # the rest were dropped, never waited for
    child.stdin.write("go\n")
    child.stdin.flush()
    child.communicate(timeout=60)
    rest = reader.take()
    assert rest.names == ["last_kernel"]  # a launch after the drain is written again
    assert first.lost or rest.lost  # and the drop is reported, once there was room to say so


TORCH_ADD = "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_15CUDAFunctor_addIfEEEEviT0_"
TORCH_FILL = "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEEEEviT0_"
CUBLAS = "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_cublas"

TRITON_SOURCE = """
import triton
@triton.jit
def add_kernel(a, b, c, n):
    pass
def sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_cublas():
    pass
def solve(a, b, c, n):
    pass
"""


def _entries(*names: str, graph: bool = False, lost: bool = False) -> ledger.Entries:
    return ledger.Entries(names=list(names), graph=graph, lost=lost)


def test_the_submissions_own_kernels_fills_and_the_harness_pass() -> None:
    owns = kernel_names.triton_owner(TRITON_SOURCE)
    assert ledger.refusal(_entries("add_kernel", TORCH_FILL, "_hold", "_stamp_end"), owns) is None


@pytest.mark.parametrize("name", [TORCH_ADD, CUBLAS, "kernel_from_a_code_string"])
def test_any_other_kernel_is_refused_whatever_the_source_names(name: str) -> None:
    """torch's add, a cuBLAS GEMM (though the source defines a function of that very name), and
    a kernel whose function the source does not define (compiled from a string)."""
    why = ledger.refusal(_entries("add_kernel", name), kernel_names.triton_owner(TRITON_SOURCE))
    assert why is not None and "not one of your kernels" in why


def test_graphs_and_lost_names_are_refused() -> None:
    owns = kernel_names.triton_owner(TRITON_SOURCE)
    assert "CUDA graph" in (ledger.refusal(_entries(graph=True), owns) or "")
    assert "more distinct kernels" in (ledger.refusal(_entries(lost=True), owns) or "")


NUMBA_SOURCE = """
from numba import cuda
@cuda.jit
def add_kernel(a, b, c, n):
    pass
def solve(a, b, c, n):
    pass
"""


def test_numba_kernels_are_the_solution_modules_functions() -> None:
    """As numba-cuda 0.30 named them on the H200: ``solution::add_kernel[abi:v1]...``."""
    owns = kernel_names.numba_owner(NUMBA_SOURCE)
    numba_add = "_ZN8solution10add_kernelB2v1B96cw51cXTLSUwv1sDUaKthqE5ArrayIfLi1E1C7mutableE"
    older = "_ZN6cudapy8solution10add_kernelB2v1E5ArrayIfLi1E1C7mutableE"
    assert ledger.refusal(_entries(numba_add, older), owns) is None
    assert ledger.refusal(_entries(numba_add, TORCH_ADD), owns) is not None
    other = "_ZN8solution12not_mine_fn_B2v1E5ArrayIfLi1E1C7mutableE"  # not defined in the source
    assert ledger.refusal(_entries(other), owns) is not None
    native = kernel_names.numba_owner(NUMBA_SOURCE + "\ndef native():\n    pass\n")
    assert ledger.refusal(_entries(TORCH_ADD), native) is not None  # at::native is not solution


def test_autotuner_copies_pass_only_where_the_source_asks_for_them() -> None:
    copy = "_ZN2at6native18elementwise_kernelILi128ELi4EZNS0_22direct_copy_kernel_cudaEvE"
    plain = kernel_names.triton_owner(TRITON_SOURCE)
    restoring = kernel_names.triton_owner(TRITON_SOURCE + "\n# restore_value=['c']\n")
    assert ledger.refusal(_entries(copy), plain) is not None
    assert ledger.refusal(_entries(copy), restoring) is None


def _channel(lines: list[str]) -> tuple[Channel, SimpleNamespace]:
    r, w = os.pipe()
    os.write(w, "".join(f"{line}\n" for line in lines).encode())
    os.close(w)
    g = SimpleNamespace(
        result=GradeResult(verdict=Verdict.ACCEPTED, problem="p", language="l", device="H200")
    )
    ch = Channel(g)  # type: ignore[arg-type]
    ch.runner = SimpleNamespace(ledger=ledger.Reader(r), ledger_why="")  # type: ignore[assignment]
    return ch, g


def test_the_channel_judges_what_came_after_the_load_only() -> None:
    """Start-up kernels (the judge's own, before the submission exists) are dropped at arming;
    a torch kernel after it stops the grading as rejected."""
    ch, g = _channel(["ok /lib/libcupti.so", f"k {TORCH_FILL}", "k some_startup_kernel"])
    ch.arm_ledger(kernel_names.triton_owner(TRITON_SOURCE))
    assert g.result.phases["ledger"] == 1
    ch._audit()  # nothing new: passes
    ch2, _ = _channel(["ok /lib/libcupti.so"])
    ch2.arm_ledger(kernel_names.triton_owner(TRITON_SOURCE))
    assert ch2.runner is not None and ch2.runner.ledger is not None
    r, w = os.pipe()
    ch2.runner.ledger = ledger.Reader(r)
    os.write(w, f"k add_kernel\nk {TORCH_ADD}\n".encode())
    with pytest.raises(Stop) as stop:
        ch2._audit()
    assert stop.value.verdict == Verdict.REJECTED
    assert "not one of your kernels" in stop.value.message
    os.close(w)


def test_an_off_ledger_leaves_the_grading_to_the_in_process_rule() -> None:
    ch, g = _channel(["off no libcupti", f"k {TORCH_ADD}"])
    ch.arm_ledger(kernel_names.triton_owner(TRITON_SOURCE))
    assert g.result.phases["ledger"] == 0 and ch.owns is None
    ch._audit()


def test_a_cache_it_cannot_write_turns_the_ledger_off_not_the_grading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("")  # a cache root below a file: mkdir raises
    monkeypatch.setenv("KERNELDOJO_CACHE", str(blocked / "cache"))
    ledger._library.cache_clear()
    try:
        built = ledger.library()
    finally:
        ledger._library.cache_clear()
    assert built.path is None and "could not build it" in built.why
