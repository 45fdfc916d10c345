"""CUDA C++: a ``.cu`` file defining ``extern "C" void solve(...)`` on device pointers, compiled
with nvcc for the worker's GPU. Without a GPU it is compiled only and reported as not run."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from judge.languages.base import Language, shapes_comment
from judge.languages.runtime import Loaded, Prepared, Refused, RunContext, SubmissionError

if TYPE_CHECKING:
    from judge.problem.schema import Problem

_SIMPLE = re.compile(r"[A-Za-z_]\w*|\d+")  # a shape entry that is also a C expression


class Cuda(Language):
    """Compiled by the referee (compilers.py: nvcc in the sandbox, then the symbol check), called
    in the runner through ctypes with device pointers; its errors come from the shim's
    synchronize."""

    name: ClassVar[str] = "cuda"
    label: ClassVar[str] = "CUDA"
    menu_label: ClassVar[str] = "CUDA C++"
    suffix: ClassVar[str] = ".cu"
    editor_mode: ClassVar[str] = "cpp"
    comment: ClassVar[str] = "//"
    runs_on_cpu: ClassVar[bool] = False
    declaration_end: ClassVar[str] = ";"
    markers: ClassVar[tuple[str, ...]] = ("cuda",)

    def signature(self, problem: Problem) -> str:
        return f'extern "C" void solve({", ".join(a.c_decl() for a in problem.args)})'

    def generate_starter(self, problem: Problem) -> str:
        out = problem.outputs[0]
        dtypes = {a.dtype for a in problem.args if a.is_tensor}
        includes = ["#include <cuda_runtime.h>"]
        if "float16" in dtypes:
            includes.append("#include <cuda_fp16.h>")
        if "bfloat16" in dtypes:
            includes.append("#include <cuda_bf16.h>")
        if "float8_e4m3fn" in dtypes:
            includes.append("#include <cuda_fp8.h>")
        params = ", ".join(a.c_decl() for a in problem.args)
        call_args = ", ".join(a.name for a in problem.args)
        # Shape entries are arithmetic over the int arguments in Python syntax (``//``, ``**``);
        # only plain names and numbers are copied into C, else the launch covers one block.
        if all(_SIMPLE.fullmatch(s) for s in out.shape):
            total = " * ".join(out.shape)
        else:
            total = "1  /* TODO: the number of elements of the output */"
        return f"""{chr(10).join(includes)}

__global__ void solve_kernel({params}) {{
    // TODO: thread i computes element i of {out.name} (return if i is past its end).
}}

{shapes_comment(problem, "//")}
// Device pointers to contiguous arrays; launch your kernel(s) and return (no synchronization
// needed).
{self.signature(problem)} {{
    int total = {total};  // elements of {out.name}
    int threads = 256;
    int blocks = (total + threads - 1) / threads;
    solve_kernel<<<blocks, threads>>>({call_args});
}}
"""

    def prepare(
        self, source: str, workdir: Path, problem: Problem, *, static_policy: bool, compile_s: float
    ) -> Prepared:
        from judge.build import compilers

        path = workdir / "solution.cu"
        path.write_text(source)
        t0 = time.monotonic()
        res, lib, violation = compilers.compile_cuda(path, workdir, compile_s)
        took = time.monotonic() - t0
        if not res.ok:
            raise Refused("compile_error", "nvcc could not compile the submission", res, took)
        if violation is not None and self.library_rule(problem):
            raise Refused("rejected", violation, res, took)
        assert lib is not None
        return Prepared(lib.name, res, took)

    def load(self, path: Path, ctx: RunContext) -> Loaded:
        import ctypes
        import os

        lib = ctypes.CDLL(str(path), mode=os.RTLD_LOCAL | os.RTLD_NOW)
        solve = lib.solve
        solve.argtypes = [ctypes.c_void_p if t == "ptr" else ctypes.c_int for t in ctx.argtypes]
        solve.restype = None
        lib.kerneldojo_sync.restype = ctypes.c_int
        lib.kerneldojo_error_string.restype = ctypes.c_char_p
        lib.kerneldojo_error_string.argtypes = [ctypes.c_int]
        return _CudaLoaded(solve, lib, ctx)


class _CudaLoaded(Loaded):
    def __init__(self, solve: Any, shim: Any, ctx: RunContext) -> None:
        self.solve, self.shim, self.ctx = solve, shim, ctx

    def invoke(self, args: list[Any]) -> Any:
        return self.solve(*(a.data_ptr() if hasattr(a, "data_ptr") else a for a in args))

    def synchronize(self) -> None:
        if self.ctx.device != "cuda":
            return
        code = self.shim.kerneldojo_sync()
        if code != 0:
            raise SubmissionError(
                # 2 = cudaErrorMemoryAllocation
                "memory_limit_exceeded" if code == 2 else "runtime_error",
                f"CUDA error {code}: {self.shim.kerneldojo_error_string(code).decode()}",
            )
        self.ctx.torch.cuda.synchronize()


LANGUAGE = Cuda()
