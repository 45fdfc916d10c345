"""The CPU interpreter's out-of-bounds findings (profile/bounds.py) through the whole judge:
the sandboxed runner checks every access, the referee attaches the findings to a failing
result or on demand (``--mode sanitize``), with the submission's line."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from tests.conftest import FIXTURE_PROBLEMS, grade_cli
from tests.samples import VECTOR_ADD

KERNELDOJO = str(Path(sys.executable).parent / "kerneldojo")

# Loads a and b without their mask (reads past the end, harmless here), stores with it: right.
UNMASKED_LOADS = VECTOR_ADD.replace(
    "a = tl.load(a_ptr + offs, mask=mask)", "a = tl.load(a_ptr + offs)"
).replace("b = tl.load(b_ptr + offs, mask=mask)", "b = tl.load(b_ptr + offs)")
# Stores without the mask: writes past the end of c (the guard bands make it wrong_answer).
UNMASKED_STORE = VECTOR_ADD.replace(
    "tl.store(c_ptr + offs, a + b, mask=mask)", "tl.store(c_ptr + offs, a + b)"
)


def line_of(source: str, text: str) -> int:
    return next(i for i, ln in enumerate(source.splitlines(), 1) if text in ln)


def grade(tmp_path: Path, source: str, mode: str = "run") -> dict[str, Any]:
    src = tmp_path / "solution.py"
    src.write_text(source)
    return grade_cli(FIXTURE_PROBLEMS / "toy-add", src, "--mode", mode)


def test_unmasked_store_is_wrong_with_its_line(tmp_path: Path) -> None:
    d = grade(tmp_path, UNMASKED_STORE)
    assert d["verdict"] == "wrong_answer"
    san = d["sanitizer"]
    assert san["tool"] == "interpreter" and san["case"] == "n = 3"
    store = [f for f in san["findings"] if f["kind"] == "out-of-bounds store"]
    line = line_of(UNMASKED_STORE, "tl.store(")
    assert store[0]["file"] == "solution.py" and store[0]["line"] == line
    # n = 3 in a block of 1024: 1021 lanes write past c, the last one 4 * 1021 bytes past it.
    assert f"at solution.py:{line}: 1021 of 1024 active lanes" in store[0]["message"]
    assert "4084 bytes past the end of c_ptr" in store[0]["message"]


def test_unmasked_loads_on_demand(tmp_path: Path) -> None:
    d = grade(tmp_path, UNMASKED_LOADS, mode="sanitize")
    assert d["verdict"] == "accepted"  # a finding never changes the verdict
    got = {(f["kind"], f["line"]) for f in d["sanitizer"]["findings"]}
    assert got == {
        ("out-of-bounds load", line_of(UNMASKED_LOADS, "a = tl.load(")),
        ("out-of-bounds load", line_of(UNMASKED_LOADS, "b = tl.load(")),
    }


def test_clean_kernel_has_no_report_unless_asked(tmp_path: Path) -> None:
    assert grade(tmp_path, VECTOR_ADD)["sanitizer"] is None
    d = grade(tmp_path, VECTOR_ADD, mode="sanitize")
    assert d["verdict"] == "accepted"
    assert d["sanitizer"]["findings"] == []
    assert "no out-of-bounds access" in d["sanitizer"]["message"]
