"""Every sample solution of every problem gets its declared verdict under the CPU interpreter."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECK = [sys.executable, "-m", "worker.cli", "problems", "check"]


@pytest.mark.timeout(1800)
def test_problems_check_all_samples_on_cpu() -> None:
    proc = subprocess.run(
        # One shard per core (--jobs 0): the interpreter keeps one core busy per process.
        [*CHECK, "--device", "cpu", "--json", "--jobs", "0"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=1700,
    )
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    bad = [
        (
            r["problem"],
            r["sample"],
            r["expected"],
            r["result"]["verdict"],
            r["result"]["message"][:300],
        )
        for r in rows
        if not r["ok"]
    ]
    assert not bad, bad
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert {r["problem"] for r in rows} >= {
        "vector-add",
        "reduction",
        "softmax",
        "matmul",
        "flash-attention",
    }
    triton_accepted = [
        r for r in rows if r["expected"] == "accepted" and r["sample"].endswith(".py")
    ]
    assert triton_accepted and all(r["result"]["verdict"] == "accepted" for r in triton_accepted)
