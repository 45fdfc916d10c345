"""``kerneldojo play`` (judge/cli_play.py): the playground's one case from a terminal, its
outputs beside the reference's and the kernel's printed lines (markup-like text kept as is)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT, problems_root
from tests.samples import VECTOR_ADD

PRINTS = VECTOR_ADD.replace(
    "def solve(a, b, c, n):\n", 'def solve(a, b, c, n):\n    print("[n] =", n)\n'
)


def _play(src: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "judge.cli", "play", str(problems_root() / "vector-add"), str(src)]
    return subprocess.run(
        [*cmd, "--device", "cpu", *args], capture_output=True, text=True, cwd=ROOT, timeout=300
    )


def test_play_one_case(tmp_path: Path) -> None:
    src = tmp_path / "solution.py"
    src.write_text(PRINTS)
    r = _play(src, "--case", "n=5", "--seed", "2", "--input", "a=[1,2,3,4,5]", "--json")
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)
    assert res["verdict"] == "accepted" and "[n] = 5" in res["stdout"]
    assert res["playground"]["inputs"]["a"]["values"] == [1.0, 2.0, 3.0, 4.0, 5.0]
    assert res["playground"]["params"] == {"n": 5} and res["playground"]["seed"] == 2

    r = _play(src, "--case", "n=3")
    assert r.returncode == 0, r.stderr
    assert "matches the reference on n = 3, seed 0" in r.stdout
    assert "reference" in r.stdout and "[n] = 3" in r.stdout

    r = _play(src, "--case", "n=0")
    assert r.returncode == 2 and "between 1 and" in r.stderr
