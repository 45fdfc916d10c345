#!/usr/bin/env python3
"""Write a GPU check's benchmark figures into problem folders' editorials and statements.

    python3 benchmarks/editorial_figures.py BENCH.jsonl [BENCH.jsonl ...] [--date 2026-11-25]

Reads the rows of ``scripts/gpu_check.py --phase bench`` (one per sample and case, each graded
one or more times: "0.1772 / 0.1772"). In each ``editorial.md``'s "## H100 figures" table, a row
naming a sample in backticks gets its median, its share of the torch baseline's speed and its
share of the speed of light, one value per benchmark case ("a / b" where the problem has two); a
row marked "(baseline)" gets torch's own. Cells already holding figures are left alone. In each
``statement.md``, the paragraph beginning "Measured by this judge on an H100:" is rewritten from
the same rows. Problems without rows in the files are not touched.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
from collections import defaultdict
from pathlib import Path
from typing import TypedDict

REPO = Path(__file__).resolve().parents[1]
PENDING = "(measured by the lead)"


class Case(TypedDict):
    """One benchmark case of one sample: its name and times in milliseconds."""

    case: str
    ms: float
    torch: float
    sol: float


def load(paths: list[Path]) -> dict[str, dict[str, list[Case]]]:
    """problem -> sample -> [per case, in file order: median_ms, torch_ms, sol_ms]."""
    out: dict[str, dict[str, list[Case]]] = defaultdict(dict)
    for path in paths:
        for line in path.read_text().splitlines():
            r = json.loads(line)
            if r.get("verdict") != "accepted" or "median_ms" not in r:
                continue
            ms = statistics.mean(float(x) for x in str(r["median_ms"]).split(" / "))
            torch_ms = float(r["torch_ms"]) if r.get("torch_ms") not in (None, "", "-") else 0.0
            sol_ms = ms * float(r["SOL_%"]) / 100 if r.get("SOL_%") else 0.0
            cases = out[r["problem"]].setdefault(r["sample"], [])
            cases.append({"case": r["case"], "ms": ms, "torch": torch_ms, "sol": sol_ms})
    return out


def _fmt_ms(ms: float) -> str:
    return f"{ms:.3f} ms" if ms < 10 else f"{ms:.1f} ms"


def cells(cases: list[Case], baseline: bool) -> tuple[str, str, str]:
    ms = [c["torch"] if baseline else c["ms"] for c in cases]
    vs = ["100%" if baseline else f"{100 * c['torch'] / c['ms']:.0f}%" for c in cases]
    sol = [f"{100 * c['sol'] / m:.0f}%" for c, m in zip(cases, ms, strict=True)]
    return " / ".join(_fmt_ms(m) for m in ms), " / ".join(vs), " / ".join(sol)


def _columns(header: str) -> dict[str, int]:
    """Which column of the table holds what, from its header row."""
    cols: dict[str, int] = {}
    for i, name in enumerate(header.split("|")):
        name = name.strip().lower()
        for key, word in (("ms", "median"), ("vs", "torch"), ("sol", "speed of light")):
            if word in name and key not in cols:
                cols[key] = i
        if name in ("shape", "case", "input", "size") and "case" not in cols:
            cols["case"] = i
    return cols


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("×", "x")).strip().lower()


def fill_editorial(text: str, rows: dict[str, list[Case]]) -> str:
    head = text.find("## H100 figures")
    if head < 0:
        return text
    lines = text[head:].split("\n")
    any_cases = next(iter(rows.values()))
    cols: dict[str, int] = {}
    for i, line in enumerate(lines):
        if line.startswith("|") and not cols:
            cols = _columns(line)
        if not line.startswith("|") or PENDING not in line:
            continue
        parts = line.split("|")
        named = re.search(r"`([\w-]+\.(?:py|cu))`", parts[1])
        sample = named.group(1) if named else None
        baseline = sample is None or sample not in rows
        if baseline and "baseline" not in parts[1]:
            continue
        cases = any_cases if sample is None or baseline else rows[sample]
        if "case" in cols:  # one row per case: the case its shape cell names
            want = _norm(parts[cols["case"]])
            cases = [c for c in cases if _norm(str(c["case"])).startswith(want)] or cases
        values = dict(zip(("ms", "vs", "sol"), cells(cases, baseline), strict=True))
        for key, col in cols.items():
            if key in values and col < len(parts) - 1 and PENDING in parts[col]:
                parts[col] = f" {values[key]} "
        lines[i] = "|".join(parts)
    return text[:head] + "\n".join(lines)


def statement_paragraph(rows: dict[str, list[Case]], date: str) -> str | None:
    """The paragraph from the fast samples' rows; None where the files hold neither (a run of
    other samples must not write "Measured ...: ; torch's baseline ...")."""
    cases = next(iter(rows.values()))
    fast = [s for s in ("triton_fast.py", "cuda_fast.cu") if s in rows]
    if not fast:
        return None
    parts = []
    for s in fast:
        ms, vs, _ = cells(rows[s], baseline=False)
        parts.append(f"`{s}` {ms} ({vs} of torch's speed)")
    base, _, _ = cells(cases, baseline=True)
    names = " / ".join(c["case"] for c in cases)
    return (
        f"Measured by this judge on an H100 ({date}; {names}): "
        + "; ".join(parts)
        + f"; torch's baseline {base}. Every sample's figures are in the editorial's "
        + '"H100 figures".'
    )


def fill_statement(text: str, rows: dict[str, list[Case]], date: str) -> str:
    start = text.find("Measured by this judge on an H100:")
    end = text.find("\n\n", start)
    if start < 0 or "measured by the lead" not in text[start : end if end > 0 else None]:
        return text
    end = text.find("\n\n", start)
    end = len(text) if end < 0 else end
    import textwrap

    para = statement_paragraph(rows, date)
    if para is None:
        return text
    return text[:start] + textwrap.fill(para, width=92, break_on_hyphens=False) + text[end:]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("bench", type=Path, nargs="+")
    ap.add_argument("--date", default="2026-11-25")
    ns = ap.parse_args()
    for slug, rows in sorted(load(ns.bench).items()):
        folder = REPO / "problems" / slug
        for name, fill in (
            ("editorial.md", lambda t, r=rows: fill_editorial(t, r)),
            ("statement.md", lambda t, r=rows: fill_statement(t, r, ns.date)),
        ):
            path = folder / name
            if not path.exists():
                continue
            before = path.read_text()
            after = fill(before)
            if after != before:
                path.write_text(after)
                print(f"{slug}/{name}: filled")


if __name__ == "__main__":
    main()
