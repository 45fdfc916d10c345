"""Numba CUDA: a Python file whose ``solve(...)`` launches ``@cuda.jit`` kernels on Numba device
arrays. The judge's tensors arrive as Numba arrays over the same memory (``cuda.as_cuda_array``;
on the CPU, NumPy views under Numba's CUDA simulator), so writing into an output array writes the
output. Kernels launch on the default stream, which the judge times.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from worker.grading.languages.base import shapes_comment
from worker.grading.languages.python import PythonLanguage
from worker.grading.languages.runtime import RunContext

if TYPE_CHECKING:
    from worker.grading.schema import Problem

# Numba's CUDA simulator runs every GPU thread as a Python thread: about 10^4 threads a second (10^3 with syncthreads) on
# a CI core. On the CPU, a test case runs only when its tensors have at most this many elements
# in all (inputs and outputs: a thread per element of one of them is the usual launch); the
# larger ones run only on a GPU.
CPU_MAX_ELEMENTS = 4096
# Element types Numba's arrays have (no bfloat16 or fp8 in NumPy or Numba).
SUPPORTED = frozenset(
    {"float32", "float16", "float64", "int32", "int64", "int8", "uint8", "uint32"}
)


class Numba(PythonLanguage):
    name: ClassVar[str] = "numba"
    label: ClassVar[str] = "Numba"
    menu_label: ClassVar[str] = "Numba CUDA (Python)"
    markers: ClassVar[tuple[str, ...]] = ("numba",)
    packages: ClassVar[frozenset[str]] = frozenset({"numba", "torch", "numpy"})
    dtypes: ClassVar[frozenset[str] | None] = SUPPORTED
    dtypes_owner: ClassVar[str] = "Numba"
    cpu_max_elements: ClassVar[int | None] = CPU_MAX_ELEMENTS

    def runner_env(self, device: str) -> dict[str, str]:
        # Numba's CUDA kernels on its simulator
        return {"NUMBA_ENABLE_CUDASIM": "1"} if device == "cpu" else {}

    def convert(self, args: list[Any], ctx: RunContext) -> list[Any]:
        torch = ctx.torch
        if ctx.device == "cuda":
            from numba import cuda

            return [cuda.as_cuda_array(a) if isinstance(a, torch.Tensor) else a for a in args]
        return [a.numpy() if isinstance(a, torch.Tensor) else a for a in args]

    def synchronize(self, ctx: RunContext) -> None:
        if ctx.device == "cuda":
            from numba import cuda

            cuda.synchronize()
            ctx.torch.cuda.synchronize()

    def generate_starter(self, problem: Problem) -> str:
        out = problem.outputs[0]
        names = ", ".join(a.name for a in problem.args)
        return f"""from numba import cuda


@cuda.jit
def solve_kernel({names}):
    i = cuda.grid(1)
    # TODO: thread i computes element i of {out.name} (return if i is past its end).


{shapes_comment(problem, "#")}
# Numba device arrays over the judge's memory (ints as ints); write the result into
# {out.name} and return nothing.
def solve({names}):
    threads = 256
    blocks = ({out.name}.size + threads - 1) // threads
    solve_kernel[blocks, threads]({names})
"""


LANGUAGE = Numba()
