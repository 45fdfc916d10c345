"""How long a CPU worker takes to grade Triton's tutorial-style autotuned matmul (16 configs).

Issue #41: on a 2-core machine with no GPU it must be accepted in under 60 s, idle and with one
CPU-burning process per core beside it. Grades the sample with ``python -m judge.cli grade
--device cpu`` (a fresh process each time, as a worker's grading is) ``--count`` times idle,
then as many times with one ``sh -c 'while :; do :; done'`` per core (each its own session), and
prints one JSON object: each grading's verdict, wall seconds and the judge's phases.

    python benchmarks/cpu_autotune.py [--count 3] [--sample PATH] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "problems/matmul/solutions/accepted/triton_autotuned_16.py"


def grade(sample: Path) -> dict[str, Any]:
    t0 = time.monotonic()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "judge.cli",
            "grade",
            "matmul",
            str(sample),
            "--device=cpu",
            "--json",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    wall = time.monotonic() - t0
    try:
        res = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return {"verdict": "no result", "wall_s": round(wall, 2), "stderr": proc.stderr[-500:]}
    return {
        "verdict": res["verdict"],
        "wall_s": round(wall, 2),
        "phases": res.get("phases", {}),
        "warnings": res.get("warnings", []),
    }


def burners() -> list[subprocess.Popen[bytes]]:
    return [
        subprocess.Popen(["sh", "-c", "while :; do :; done"], start_new_session=True)
        for _ in range(len(os.sched_getaffinity(0)))
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=3)
    ap.add_argument("--sample", type=Path, default=SAMPLE)
    ap.add_argument("--out", type=Path)
    ns = ap.parse_args()
    report: dict[str, Any] = {"sample": str(ns.sample.relative_to(ROOT)), "cores": os.cpu_count()}
    report["idle"] = [grade(ns.sample) for _ in range(ns.count)]
    procs = burners()
    try:
        report["burners"] = [grade(ns.sample) for _ in range(ns.count)]
    finally:
        for p in procs:
            p.kill()
            p.wait()
    text = json.dumps(report, indent=1)
    print(text)
    if ns.out:
        ns.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
