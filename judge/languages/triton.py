"""Triton: a Python file defining ``solve(...)`` that launches ``@triton.jit`` kernels on the
judge's torch tensors. Runs on the CPU under Triton's interpreter."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, ClassVar

from judge.languages import kernel_names
from judge.languages.base import shapes_comment
from judge.languages.python import PythonLanguage

if TYPE_CHECKING:
    from judge.problem.schema import Problem

_HOST_C = "it compiles and loads host C code"
_DRIVER = "it replaces the GPU driver the judge uses"


class Triton(PythonLanguage):
    name: ClassVar[str] = "triton"
    label: ClassVar[str] = "Triton"
    menu_label: ClassVar[str] = "Triton (Python)"
    precompiles: ClassVar[bool] = True
    spans_gpus: ClassVar[bool] = True  # comm and its peer buffers (docs/multi-gpu.md)
    markers: ClassVar[tuple[str, ...]] = ("triton",)
    packages: ClassVar[frozenset[str]] = frozenset({"torch", "triton", "numpy"})
    # Refused in every Python submission, as all languages' are: PyTorch's may import triton too.
    denied_paths: ClassVar[Mapping[str, str]] = {
        "triton.runtime.build": _HOST_C,
        "triton.backends": _HOST_C,
        "triton.runtime.driver.set_active": _DRIVER,
        "triton.runtime.driver.reset_active": _DRIVER,
    }
    value_modules: ClassVar[tuple[str, ...]] = ("triton.language",)
    function_modules: ClassVar[frozenset[str]] = frozenset({"triton.language"})  # tl.sort(x)
    # Everything tl names directly is a value (tl.where, tl.constexpr), its submodules aside.
    constant_paths: ClassVar[re.Pattern[str] | None] = re.compile(
        r"triton\.language\.(?!(?:math|extra|core|semantic|standard|random)\Z)[^.]+"
    )
    open_private: ClassVar[tuple[str, ...]] = ("triton.language",)

    def runner_env(self, device: str) -> dict[str, str]:
        return {"TRITON_INTERPRET": "1"} if device == "cpu" else {}

    def kernel_owner(self, source: str) -> Callable[[str], bool] | None:
        return kernel_names.triton_owner(source)

    def generate_starter(self, problem: Problem) -> str:
        out = problem.outputs[0]
        kernel_args = ", ".join(f"{a.name}_ptr" if a.is_tensor else a.name for a in problem.args)
        call_args = ", ".join(a.name for a in problem.args)
        params = ", ".join(
            f"{a.name}: torch.Tensor" if a.is_tensor else f"{a.name}: int" for a in problem.args
        )
        return f"""import torch
import triton
import triton.language as tl


@triton.jit
def solve_kernel({kernel_args}, BLOCK: tl.constexpr):
    # TODO: program i handles elements i * BLOCK ... of {out.name} (mask out those past its end):
    # load the inputs at those offsets, compute, and store the result into {out.name}_ptr.
    pass


{shapes_comment(problem, "#")}
# Contiguous tensors on the GPU; write the result into the output and return nothing.
def solve({params}):
    BLOCK = 1024
    grid = (triton.cdiv({out.name}.numel(), BLOCK),)
    solve_kernel[grid]({call_args}, BLOCK=BLOCK)
"""


LANGUAGE = Triton()
