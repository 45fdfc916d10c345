"""benchmarks/editorial_figures.py: a statement's "Measured by this judge" paragraph is written
from the fast samples' rows, and left alone where a run holds none of them."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "editorial_figures.py"
spec = importlib.util.spec_from_file_location("editorial_figures", SCRIPT)
assert spec is not None and spec.loader is not None
figures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(figures)

PENDING = "Measured by this judge on an H100: (measured by the lead).\n\n## Next\n"


def _case(ms: float) -> dict[str, object]:
    return {"case": "n = 2^20", "ms": ms, "torch": 0.5, "sol": 0.25}


def test_the_paragraph_names_the_fast_samples_and_torch() -> None:
    rows = {"triton_fast.py": [_case(0.4)], "pytorch_simple.py": [_case(0.5)]}
    out = figures.fill_statement(PENDING, rows, "2026-11-25")
    flat = " ".join(out.split())  # the paragraph is wrapped at 92 columns
    assert "`triton_fast.py` 0.400 ms (125% of torch's speed)" in flat
    assert "torch's baseline 0.500 ms" in flat
    assert "pytorch_simple" not in flat
    assert out.endswith("\n\n## Next\n")


def test_a_run_without_a_fast_sample_leaves_the_statement_alone() -> None:
    rows = {"pytorch_simple.py": [_case(0.5)], "pallas_simple.py": [_case(0.9)]}
    assert figures.fill_statement(PENDING, rows, "2026-11-25") == PENDING
