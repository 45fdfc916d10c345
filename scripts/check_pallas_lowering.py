#!/usr/bin/env python3
"""Every Pallas sample of the given problems (slugs or folders; default: all) lowered for a GPU
at each of their benchmark cases, on the CPU (judge/languages/pallas_lowering.py); prints one
JSON object: sample -> case -> error or null.

    python3 scripts/check_pallas_lowering.py [slug ...]
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from judge.languages.pallas_lowering import check_sample
from judge.problem import loader


def main(argv: Sequence[str]) -> None:
    """Every Pallas sample of the given problems (slugs or folders; default: all), at each of
    their benchmark cases."""
    chosen = (
        [loader.resolve(a) for a in argv]
        if argv
        else loader.load_all(loader.REPO_PROBLEMS).problems
    )
    report: dict[str, dict[str, str | None]] = {}
    for p in sorted(chosen, key=lambda p: p.slug):
        for s in p.samples:
            if s.language == "pallas":
                name = f"{p.slug}/{s.path.parent.name}/{s.path.name}"
                report[name] = check_sample(s.path, p, p.benchmarks)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
