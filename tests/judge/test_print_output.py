"""A submission's ``print`` reaches the result without ``flush=True`` (issue 23, item 1): every
line as it is printed (even when the runner is then stopped for its time limit), and a last
line without its newline once the call returns."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURE_PROBLEMS, ROOT, grade_cli
from tests.samples import VECTOR_ADD

KERNELDOJO = str(Path(sys.executable).parent / "kerneldojo")

PRINTS = VECTOR_ADD.replace(
    "def solve(a, b, c, n):\n",
    'print("loaded the module")\n\n\ndef solve(a, b, c, n):\n'
    '    print("solve called with n =", n)\n'
    '    print("no newline at the end", end="")\n',
)

# Prints, then never returns: the referee stops the runner at the call's time limit.
HANGS = VECTOR_ADD.replace(
    "def solve(a, b, c, n):\n",
    'def solve(a, b, c, n):\n    print("about to spin")\n    while True:\n        pass\n',
)


def grade(problem: Path, source: Path) -> dict[str, Any]:
    return grade_cli(problem, source)


def test_prints_reach_the_result(tmp_path: Path) -> None:
    src = tmp_path / "solution.py"
    src.write_text(PRINTS)
    d = grade(FIXTURE_PROBLEMS / "toy-add", src)
    assert d["verdict"] == "accepted", d
    out = str(d["stdout"])
    assert "loaded the module\n" in out
    assert "solve called with n = 3\n" in out
    assert out.rstrip().endswith("no newline at the end")


def test_a_print_before_the_time_limit_is_kept(tmp_path: Path) -> None:
    problem = tmp_path / "toy-add"
    shutil.copytree(FIXTURE_PROBLEMS / "toy-add", problem)
    with (problem / "problem.toml").open("a") as f:
        f.write("\n[limits]\ncall_s = 2\n")
    src = tmp_path / "solution.py"
    src.write_text(HANGS)
    d = grade(problem, src)
    assert d["verdict"] == "time_limit_exceeded", d
    assert "about to spin" in str(d["stdout"])


PRINTF_CU = r"""#include <cstdio>

__global__ void add_kernel(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) printf("device says n = %d\n", n);
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    printf("host says n = %d\n", n);
    add_kernel<<<(n + 255) / 256, 256>>>(a, b, c, n);
}
"""


@pytest.mark.gpu
def test_cuda_printf_reaches_the_result(tmp_path: Path) -> None:
    """Host printf sits in C's stdout buffer and device printf is written into it at the
    synchronize: both are flushed after each call (runner._flush_output)."""
    src = tmp_path / "solution.cu"
    src.write_text(PRINTF_CU)
    r = subprocess.run(
        [KERNELDOJO, "grade", str(FIXTURE_PROBLEMS / "toy-add"), str(src), "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["verdict"] == "accepted", d
    assert "host says n = 3" in d["stdout"] and "device says n = 3" in d["stdout"], d["stdout"]
