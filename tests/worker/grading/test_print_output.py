"""A submission's ``print`` reaches the result without ``flush=True`` (issue 23, item 1): every
line as it is printed (even when the runner is then stopped for its time limit), and a last
line without its newline once the call returns."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import FIXTURE_PROBLEMS, ROOT
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


def grade(problem: Path, source: Path) -> dict[str, object]:
    r = subprocess.run(
        [KERNELDOJO, "grade", str(problem), str(source), "--device", "cpu", "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    return dict(json.loads(r.stdout))


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
