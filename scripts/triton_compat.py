#!/usr/bin/env python3
"""Every Triton sample graded on the CPU with the Triton this Python has: the check that the
repository's Triton code works on the oldest Triton the judge supports, without a GPU.

    python3 -m venv /tmp/triton36
    /tmp/triton36/bin/pip install torch==2.13.0 triton==3.6.0 "numpy<2.3"
    /tmp/triton36/bin/python scripts/triton_compat.py --shard 0/2 > t0.jsonl &
    /tmp/triton36/bin/python scripts/triton_compat.py --shard 1/2 > t1.jsonl
    python3 scripts/triton_compat.py --summary t0.jsonl t1.jsonl

``make test`` grades every sample with the newest Triton (the CPU venv's); GPU hosts may run an
older one (the lent H100 has 3.6), whose front end refuses things 3.9 accepts (a plain global
read in a kernel, an int8 ``tl.dot`` into int32 without ``out_dtype``). Grading under the
interpreter compiles every kernel for sm_90 too (judge/sandbox/interpreter.py), so a kernel
that this Triton cannot build is a ``compile_error`` or a warning on its row. Triton 3.6's
interpreter needs NumPy < 2.3. A row is one sample (judge/problem_check.py's, with the
result's warnings and message); ``--summary`` counts them and lists the rows that disagree.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def grade(shard: int, shards: int, slugs: list[str]) -> None:
    os.environ["TRITON_INTERPRET"] = "1"  # before Triton is imported
    import triton

    from judge import problem_check
    from judge.problem.loader import load_all

    chosen = []
    for p in sorted(load_all(REPO / "problems").problems, key=lambda p: p.slug):
        samples = tuple(s for s in p.samples if s.language == "triton")
        if samples and (not slugs or p.slug in slugs):
            chosen.append(dataclasses.replace(p, samples=samples))
    part = problem_check.shards(chosen, shards)[shard] if chosen else []
    for row in problem_check.rows(part, "cpu", "run"):
        res: dict[str, Any] = row.pop("result", None) or {}
        row["triton"] = triton.__version__
        row["warnings"] = res.get("warnings", [])
        if not row.get("ok"):
            row["message"] = res.get("message")
        print(json.dumps(row), flush=True)


def summary(files: list[Path]) -> int:
    rows = [json.loads(line) for f in files for line in f.read_text().splitlines() if line]
    bad = [r for r in rows if not r.get("ok") or r.get("warnings")]
    versions = sorted({r.get("triton", "?") for r in rows})
    problems = len({r["problem"] for r in rows})
    print(f"Triton {', '.join(versions)}: {len(rows)} samples of {problems} problems, ", end="")
    print(f"{sum(1 for r in rows if r.get('ok'))} as declared")
    for r in bad:
        got = r.get("detail") or "; ".join(r.get("warnings", []))
        print(f"  {r['problem']}/{r['folder']}/{r['sample']}: {got}"[:300])
    return 1 if any(not r.get("ok") for r in rows) else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shard", default="0/1", help="i/n: this process's share of the problems")
    ap.add_argument("--problem", action="append", default=[], help="only these (repeatable)")
    ap.add_argument("--summary", nargs="+", type=Path, help="count the rows of these files")
    args = ap.parse_args()
    if args.summary:
        sys.exit(summary(args.summary))
    i, n = (int(x) for x in args.shard.split("/"))
    grade(i, n, args.problem)


if __name__ == "__main__":
    main()
