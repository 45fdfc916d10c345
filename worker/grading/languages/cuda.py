"""CUDA C++: a ``.cu`` file defining ``extern "C" void solve(...)`` on device pointers, compiled
with nvcc for the worker's GPU. Without a GPU it is compiled only and reported as not run."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar

from worker.grading.languages.base import Language, shapes_comment

if TYPE_CHECKING:
    from worker.grading.schema import Problem

_SIMPLE = re.compile(r"[A-Za-z_]\w*|\d+")  # a shape entry that is also a C expression


class Cuda(Language):
    name: ClassVar[str] = "cuda"
    label: ClassVar[str] = "CUDA"
    menu_label: ClassVar[str] = "CUDA C++"
    suffix: ClassVar[str] = ".cu"
    editor_mode: ClassVar[str] = "cpp"
    comment: ClassVar[str] = "//"
    runs_on_cpu: ClassVar[bool] = False
    declaration_end: ClassVar[str] = ";"

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


LANGUAGE = Cuda()
