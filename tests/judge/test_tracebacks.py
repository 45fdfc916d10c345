"""A runtime error's traceback runs into the learner's @triton.jit kernel (#37, item 5): the
interpreter wraps a kernel's error in an ``InterpreterError`` raised at the launch line, and the
kernel's own line was lost, so the editor's gutter marked the launch."""

from __future__ import annotations

from judge import grader
from judge.languages.runtime import submission_traceback
from judge.problem import loader
from judge.verdicts import Verdict

KERNEL = """import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs[:, None], mask=mask)
    tl.store(c_ptr + offs, {value}, mask=mask)


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, n: int):
    add_kernel[(triton.cdiv(n, 1024),)](a, b, c, n, BLOCK=1024)
"""


def test_a_wrapped_error_lists_the_frames_of_its_cause_last() -> None:
    code = compile(
        "def kernel():\n    return [][1]\n\ndef solve(launch):\n    launch(kernel)\n",
        "/w/solution.py",
        "exec",
    )
    scope: dict[str, object] = {}
    exec(code, scope)

    class Wrapper(Exception):
        pass

    def launch(fn: object) -> None:  # a library's launcher: wraps what the kernel raised
        try:
            fn()  # type: ignore[operator]
        except Exception as e:
            raise Wrapper(repr(e)) from e

    try:
        scope["solve"](launch)  # type: ignore[operator]
    except Wrapper as e:
        said = submission_traceback(e, "solution.py")
    frames = [ln.strip() for ln in said.splitlines() if ln.strip().startswith("line ")]
    assert frames == ["line 5, in solve", "line 2, in kernel"], said
    assert said.splitlines()[-1] == "IndexError: list index out of range", said


def test_an_interpreter_error_in_a_kernel_names_the_kernels_line() -> None:
    res = grader.grade(
        loader.resolve("vector-add"),
        KERNEL.format(value="a + b"),
        "triton",
        device="cpu",
        mode="run",
    )
    assert res.verdict == Verdict.RUNTIME_ERROR, res.message
    lines = res.message.splitlines()
    assert lines[0] == "Traceback (in your code):"
    assert lines[1:5] == [
        "  line 16, in solve",
        "    add_kernel[(triton.cdiv(n, 1024),)](a, b, c, n, BLOCK=1024)",
        "  line 12, in add_kernel",
        "    tl.store(c_ptr + offs, a + b, mask=mask)",
    ], res.message
    assert lines[-1].startswith("ValueError: Expected pointer argument"), res.message
    assert "Raised inside triton/language/" in res.message


def test_a_name_error_in_a_kernel_names_the_kernels_line() -> None:
    res = grader.grade(
        loader.resolve("vector-add"),
        KERNEL.format(value="a + bb"),
        "triton",
        device="cpu",
        mode="run",
    )
    assert res.verdict == Verdict.COMPILE_ERROR, res.message
    assert "  line 12, in add_kernel\n" in res.message, res.message
    assert res.message.endswith("NameError: name 'bb' is not defined (in a @triton.jit kernel)"), (
        res.message
    )
