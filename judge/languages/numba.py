"""Numba CUDA: a Python file whose ``solve(...)`` launches ``@cuda.jit`` kernels on Numba device
arrays. The judge's tensors arrive as Numba arrays over the same memory (``cuda.as_cuda_array``;
on the CPU, NumPy views under Numba's CUDA simulator), so writing into an output array writes the
output. Kernels launch on the default stream, which the judge times.
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from judge.languages import kernel_names
from judge.languages.base import shapes_comment
from judge.languages.python import PythonLanguage
from judge.languages.runtime import Loaded, RunContext

if TYPE_CHECKING:
    from judge.problem.schema import Problem

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
    starter_stem: ClassVar[str] = "numba"  # starter/numba.py: .py is Triton's first
    label: ClassVar[str] = "Numba"
    menu_label: ClassVar[str] = "Numba CUDA (Python)"
    markers: ClassVar[tuple[str, ...]] = ("numba",)
    packages: ClassVar[frozenset[str]] = frozenset({"numba", "torch", "numpy"})
    dtypes: ClassVar[frozenset[str] | None] = SUPPORTED
    dtypes_owner: ClassVar[str] = "Numba"
    cpu_max_elements: ClassVar[int | None] = CPU_MAX_ELEMENTS
    value_modules: ClassVar[tuple[str, ...]] = ("numba", "numba.types")
    function_modules: ClassVar[frozenset[str]] = frozenset({"numba.cuda.atomic"})
    # A kernel's thread and block indices are numbers.
    constant_paths: ClassVar[re.Pattern[str] | None] = re.compile(
        r"numba\.cuda\.(?:(?:threadIdx|blockIdx|blockDim|gridDim)\.[xyz]|warpsize|laneid)"
    )
    host_attrs: ClassVar[frozenset[str]] = frozenset({"copy_to_host"})  # device array to host

    def runner_env(self, device: str) -> dict[str, str]:
        # Numba's CUDA kernels on its simulator
        return {"NUMBA_ENABLE_CUDASIM": "1"} if device == "cpu" else {}

    def kernel_owner(self, source: str) -> Callable[[str], bool] | None:
        return kernel_names.numba_owner(source)

    def load(self, path: Path, ctx: RunContext) -> Loaded:
        if ctx.device == "cpu":
            atomic_shared_arrays()
        numpy_row_stack()
        return super().load(path, ctx)

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


# The last numba-cuda release that needs numpy_row_stack (tests/judge/languages/test_numba_compat.py
# fails once requirements/worker-gpu.txt pins a later one, so that the shim is looked at again).
ROW_STACK_NEEDED_THROUGH = (0, 30, 4)


def numpy_row_stack() -> None:
    """Give NumPy 2.5+ back ``numpy.row_stack`` (an alias of ``vstack``) before numba-cuda loads.

    NumPy 2.5 removed ``row_stack``; numba-cuda (0.30.4, the last release: it is in maintenance
    mode) registers an overload for it unconditionally when it first compiles a kernel
    (``numba_cuda/numba/cuda/np/arrayobj.py``), so every kernel launch raised ``AttributeError:
    module 'numpy' has no attribute 'row_stack'`` on a host with NumPy 2.5, and the learner was
    told their code was wrong. Upstream: NVIDIA/numba-cuda#907 (closed, will not be fixed there;
    the fix #916 was not merged). numba itself has the guard since 0.67.0. Only the runner of a
    Numba submission gets the alias; nothing is changed where NumPy still has it."""
    import numpy as np

    if not hasattr(np, "row_stack"):
        np.row_stack = np.vstack  # type: ignore[attr-defined,unused-ignore]  # gone in 2.5


def atomic_shared_arrays() -> None:
    """Make the simulator's ``cuda.shared.array`` allocate once per block, whatever the threads.

    The simulator (numba 0.68, ``kernelapi.FakeCUDAShared.array``) gives each block one array per
    source line: the first thread to reach the line allocates it with ``np.empty`` and the others
    look it up, with no lock between the look-up and the store. Two threads that both miss each
    allocate their own array, and the block's threads then work on two arrays: a scan reads
    uninitialised memory, and a correct kernel fails at random (CI, 2026-11-25: a block-scan
    ranked an element 1744831654th of 31). Here the look-up and the store are one step under a
    lock, the array still named by its caller's file and line, as the simulator names it."""
    import numpy as np
    from numba.core import types
    from numba.cuda.simulator import kernelapi
    from numba.np import numpy_support

    shared: Any = kernelapi.FakeCUDAShared
    if getattr(shared, "kerneldojo_atomic", False):
        return
    dynamic = shared.array
    lock = threading.Lock()

    def array(self: Any, shape: Any, dtype: Any) -> Any:
        if shape == 0:  # dynamic shared memory: one buffer for all, nothing looked up
            return dynamic(self, shape, dtype)
        if isinstance(dtype, types.Type):
            dtype = numpy_support.as_dtype(dtype)
        frame = sys._getframe(1)
        caller = (frame.f_code.co_filename, frame.f_lineno)
        with lock:
            res = self._allocations.get(caller)
            if res is None:
                res = self._allocations[caller] = np.empty(shape, dtype)
        return res

    shared.kerneldojo_original = dynamic
    shared.array = array
    shared.kerneldojo_atomic = True


LANGUAGE = Numba()
