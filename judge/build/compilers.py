"""Compiling CUDA submissions: nvcc in the sandbox, then a link-level rules check.

The submission is built into a shared library together with a small shim that exposes the
library's own CUDA runtime (``kerneldojo_sync``): nvcc links the runtime statically, so
launch errors are only visible through that copy of it. The shim is our own fixed source: it is
compiled once per worker process and its object linked into every submission (compiling it
again each time cost 2-3 s a submission on a CI core, about half of a CPU worker's CUDA
grading: benchmarks/README.md, 'Compile cost').
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from judge import device
from judge.results import CompileResult
from judge.sandbox import bubblewrap

SHIM = r"""
#include <cuda_runtime.h>
extern "C" int kerneldojo_sync(void) {
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return (int)e;
  return (int)cudaDeviceSynchronize();
}
extern "C" const char* kerneldojo_error_string(int e) { return cudaGetErrorString((cudaError_t)e); }
"""

# Undefined symbols a kernel submission has no business importing.
_FORBIDDEN = [
    (
        re.compile(r"^(cublas|cublasLt|cudnn|cufft|cusparse|cusolver|curand|nccl)"),
        "a CUDA math library",
    ),
    (
        re.compile(
            r"^(dlopen|dlsym|dlvsym|dlmopen|dlinfo|_dl_\w+|__libc_dlopen_mode|__libc_dlsym|fork|vfork|"
            r"exec\w*|posix_spawnp?|system|popen|ptrace|clone|clone3|syscall|prctl|"
            r"process_vm_\w+|socket|connect)$"
        ),
        "a process or dynamic-loading call",
    ),
]
_THRUST = re.compile(r"thrust")

# The shim's object file for (nvcc, flags), compiled on first use (shim_object).
_shim_objects: dict[tuple[str, ...], bytes] = {}
_shim_lock = threading.Lock()


def arch_flags() -> list[str]:
    cap = device.compute_capability() or (9, 0)
    major, minor = cap
    if (major, minor) == (9, 0):
        # sm_90a: Hopper's wgmma/setmaxnreg are available to learners who want them.
        return ["-gencode=arch=compute_90a,code=sm_90a"]
    return [f"-arch=sm_{major}{minor}"]


def nvcc_flags() -> list[str]:
    """The flags every CUDA submission is compiled with (benchmarks/cuda_lib.py uses them too,
    so a candidate kernel is timed as the judge would build it)."""
    return ["-O3", "-std=c++17", "-lineinfo", *arch_flags(), "-Xcompiler", "-fPIC"]


def nvcc_path() -> str | None:
    return shutil.which("nvcc") or (
        "/usr/local/cuda/bin/nvcc" if Path("/usr/local/cuda/bin/nvcc").exists() else None
    )


def compile_cuda(
    source_path: Path, workdir: Path, timeout_s: float
) -> tuple[CompileResult, Path | None, str | None]:
    """(result, library path, rule violation) for the .cu file at source_path inside workdir."""
    nvcc = nvcc_path()
    if nvcc is None:
        return CompileResult(False, "nvcc was not found on this worker"), None, None
    lib = workdir / "solution.so"
    sw = bubblewrap.SANDBOX_WORKDIR if bubblewrap.mode() != "off" else str(workdir)
    common = [nvcc, *nvcc_flags()]
    shim = shim_object(nvcc, timeout_s)
    if shim is not None:
        shim_name = "kerneldojo_shim.o"
        (workdir / shim_name).write_bytes(shim)
    else:  # the shim did not build alone: built with the submission, as one link step
        shim_name = "kerneldojo_shim.cu"
        (workdir / shim_name).write_text(SHIM)
    # Object first: the rules check reads what the learner's code itself imports, before the
    # static CUDA runtime (which uses dlopen itself) is linked in.
    steps = [
        [*common, "-c", "-o", f"{sw}/solution.o", f"{sw}/{source_path.name}"],
        [
            *common,
            "-shared",
            "-o",
            f"{sw}/solution.so",
            f"{sw}/solution.o",
            f"{sw}/{shim_name}",
        ],
    ]
    t0 = time.monotonic()
    policy = bubblewrap.Policy(
        workdir=workdir,
        limits=bubblewrap.Limits(cpu_s=int(timeout_s) + 5, file_mb=256, address_space_mb=8192),
    )
    logs = []
    for i, argv in enumerate(steps):
        left = timeout_s - (time.monotonic() - t0)
        code, output, timed_out = bubblewrap.run(argv, policy, max(left, 1.0))
        logs.append(_clean_log(output, sw))
        log = "".join(logs)
        if timed_out:
            return (
                CompileResult(
                    False,
                    f"compilation took longer than {timeout_s:.0f} s\n{log}",
                    time.monotonic() - t0,
                ),
                None,
                None,
            )
        if code != 0:
            return (
                CompileResult(False, log or f"nvcc exited with {code}", time.monotonic() - t0),
                None,
                None,
            )
        if i == 0:
            violation = forbidden_symbols(workdir / "solution.o")
    seconds = time.monotonic() - t0
    if not lib.exists():
        return CompileResult(False, log or "nvcc produced no library", seconds), None, None
    return CompileResult(True, log, seconds), lib, violation


def shim_object(nvcc: str, timeout_s: float) -> bytes | None:
    """The shim compiled with the judge's flags (cached per process), or None if it failed.

    Trusted source, so built outside the sandbox, and not counted in a submission's compile
    time."""
    key = (nvcc, *nvcc_flags())
    with _shim_lock:
        if key not in _shim_objects:
            with tempfile.TemporaryDirectory(prefix="kerneldojo-shim-") as d:
                src, obj = Path(d) / "kerneldojo_shim.cu", Path(d) / "kerneldojo_shim.o"
                src.write_text(SHIM)
                try:
                    proc = subprocess.run(
                        [*key, "-c", "-o", str(obj), str(src)],
                        capture_output=True,
                        timeout=max(timeout_s, 60.0),
                    )
                except subprocess.TimeoutExpired:
                    return None
                if proc.returncode != 0 or not obj.is_file():
                    return None
                _shim_objects[key] = obj.read_bytes()
        return _shim_objects[key]


def _clean_log(text: str, sw: str) -> str:
    return text.replace(f"{sw}/", "")


def forbidden_symbols(lib: Path) -> str | None:
    """A reason to reject the object file, from the symbols it imports and defines, or None."""
    nm = shutil.which("nm")
    if nm is None:
        return None
    undefined = subprocess.run(
        [nm, "--undefined-only", str(lib)], capture_output=True, text=True
    ).stdout
    for line in undefined.splitlines():
        sym = line.split()[-1].split("@")[0] if line.split() else ""
        for pattern, what in _FORBIDDEN:
            if pattern.search(sym):
                return f"the library calls {sym} ({what}); solve must compute with your own kernels"
    defined = subprocess.run(
        [nm, "-C", "--defined-only", str(lib)], capture_output=True, text=True
    ).stdout
    if _THRUST.search(defined):
        return "the library uses thrust; solve must compute with your own kernels"
    return None
