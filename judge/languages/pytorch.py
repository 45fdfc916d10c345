"""PyTorch: a Python file whose ``solve(...)`` may use any torch operation, ``torch.compile``
included. The framework track: ranked apart from the kernel languages, since it is the libraries'
kernels being timed. Runs on the CPU with torch's CPU operators."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from judge.languages.base import Track, shapes_comment
from judge.languages.python import PythonLanguage

if TYPE_CHECKING:
    from judge.problem.schema import Problem


class PyTorch(PythonLanguage):
    name: ClassVar[str] = "pytorch"
    starter_stem: ClassVar[str] = "pytorch"  # starter/pytorch.py: .py is Triton's first
    label: ClassVar[str] = "PyTorch"
    menu_label: ClassVar[str] = "PyTorch (framework track)"
    track: ClassVar[Track] = "framework"
    markers: ClassVar[tuple[str, ...]] = ("torch",)
    packages: ClassVar[frozenset[str]] = frozenset({"torch", "triton", "numpy"})
    jit_on_cpu: ClassVar[bool] = True  # torch.compile writes and builds C++ kernels there
    spans_gpus: ClassVar[bool] = True  # comm and its peer buffers (docs/multi-gpu.md)

    def generate_starter(self, problem: Problem) -> str:
        outs = ", ".join(a.name for a in problem.outputs)
        params = ", ".join(
            f"{a.name}: torch.Tensor" if a.is_tensor else f"{a.name}: int" for a in problem.args
        )
        return f"""import torch


{shapes_comment(problem, "#")}
# Framework track: any torch operation is allowed, torch.compile included (its compiling counts
# against the compile limit, not the time). Write the result into {outs} in place
# (an op's out=, or {problem.outputs[0].name}.copy_(...)) and return nothing.
def solve({params}):
    pass  # TODO
"""


LANGUAGE = PyTorch()
