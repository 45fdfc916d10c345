"""No host path in what a learner reads; an error raised inside a library says so (#41)."""

from __future__ import annotations

import sys

from judge import grader, hostpaths
from judge.problem import loader
from judge.verdicts import Verdict

LIBRARY_ERROR = """import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, n: int):
    blocks = triton.cdiv(n, "256")  # a string where Triton's helper wants a number
    add_kernel[(blocks,)](a, b, c, n, BLOCK=256)
"""


def test_library_paths_are_package_relative() -> None:
    assert (
        hostpaths.relative(
            "/opt/torch/.venv/lib/python3.12/site-packages/numba_cuda/numba/cuda/dispatcher.py:"
            "123: NumbaPerformanceWarning"
        )
        == "numba_cuda/numba/cuda/dispatcher.py:123: NumbaPerformanceWarning"
    )
    assert (
        hostpaths.relative('File "/usr/lib/python3.12/threading.py", line 1010, in run')
        == 'File "python3.12/threading.py", line 1010, in run'
    )
    assert hostpaths.relative("/usr/local/lib/python3.11/dist-packages/jax/_src/api.py") == (
        "jax/_src/api.py"
    )
    assert hostpaths.relative("your solution.py, line 3") == "your solution.py, line 3"


def test_an_error_raised_on_the_learners_line_blames_nothing_else() -> None:
    code = compile("def solve():\n    return [][1]\n", "/work/abc/solution.py", "exec")
    scope: dict[str, object] = {}
    exec(code, scope)
    try:
        scope["solve"]()  # type: ignore[operator]
    except IndexError as e:
        assert hostpaths.raised_in(e, "solution.py") == ""


def test_an_error_raised_inside_a_library_names_the_library_line() -> None:
    code = compile(
        "import json\ndef solve():\n    return json.loads('{')\n", "/w/solution.py", "exec"
    )
    scope: dict[str, object] = {}
    exec(code, scope)
    try:
        scope["solve"]()  # type: ignore[operator]
    except ValueError as e:
        said = hostpaths.raised_in(e, "solution.py")
    minor = f"python3.{sys.version_info.minor}"
    assert said.startswith(f"Raised inside {minor}/json/decoder.py, line ")
    assert "not a line of yours" in said


def test_a_grading_shows_where_the_library_raised_without_host_paths() -> None:
    res = grader.grade(
        loader.resolve("vector-add"), LIBRARY_ERROR, "triton", device="cpu", mode="run"
    )
    assert res.verdict == Verdict.RUNTIME_ERROR, res.message
    assert "line 14, in solve" in res.message  # the learner's line that called it
    assert "Raised inside triton/" in res.message
    assert "not a line of yours" in res.message
    assert "site-packages" not in res.message and "/lib/python" not in res.message
