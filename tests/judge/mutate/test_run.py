"""``problems mutate`` on a copy of vector-add: a dropped store mask is killed, an equivalent
mutant listed in mutants.toml is left out of the score, CUDA is "not run" on the CPU (never
killed), and the JSON is the report's. Two samples and two operators keep it to a few gradings."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from judge import grader
from judge.mutate import equivalents
from judge.mutate.run import mutants_of
from judge.problem import loader
from judge.problem.schema import ProblemError
from judge.verdicts import Verdict

ROOT = Path(__file__).resolve().parents[3]
KEEP = ("triton_simple.py", "cuda_simple.cu")


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "vector-add"
    shutil.copytree(ROOT / "problems" / "vector-add", folder)
    shutil.rmtree(folder / "solutions" / "rejected")
    for f in (folder / "solutions" / "accepted").iterdir():
        if f.name not in KEEP:
            f.unlink()
    return folder


def test_mutate_kills_a_dropped_store_mask_and_excludes_an_equivalent(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (folder / "mutants.toml").write_text(
        "[equivalent]\n"
        '"triton_simple.py:drop_mask:13:1" = "a load past the end reads the guard band, never stored"\n'
        '"triton_simple.py:drop_mask:99:1" = "a line the sample no longer has"\n'
    )
    cmd = [sys.executable, "-m", "judge.cli", "problems", "mutate", str(folder), "--json"]
    cmd += ["--device", "cpu", "--jobs", "2", "--operator", "drop_mask", "--operator", "drop_guard"]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    by_id = {m["id"]: m for m in report["mutants"]}
    assert list(by_id) == [
        "cuda_simple.cu:drop_guard:6:1",
        "triton_simple.py:drop_mask:13:1",
        "triton_simple.py:drop_mask:14:1",
        "triton_simple.py:drop_mask:15:1",
    ]
    store = by_id["triton_simple.py:drop_mask:15:1"]
    assert (store["outcome"], store["verdict"]) == ("killed", "wrong_answer")
    assert "c: wrote past the end" in store["detail"]
    assert store["diff"].startswith("L15: tl.store(c_ptr + offs, a + b, mask=mask) → ")
    listed = by_id["triton_simple.py:drop_mask:13:1"]
    assert listed["outcome"] == "equivalent" and "guard band" in listed["detail"]
    assert by_id["triton_simple.py:drop_mask:14:1"]["outcome"] == "survived"
    assert by_id["cuda_simple.cu:drop_guard:6:1"]["outcome"] == "not_run"
    assert report["counts"] == {
        "mutants": 4,
        "killed": 1,
        "survived": 1,
        "equivalent": 1,
        "stillborn": 0,
        "not_run": 1,
        "error": 0,
    }
    assert report["score"] == 0.5  # killed / (generated - equivalent - not run - stillborn)
    assert report["stale_equivalents"] == ["triton_simple.py:drop_mask:99:1"]
    assert [s["verdict"] for s in report["samples"]] == ["not_run", "accepted"]


def test_a_half_accumulator_mutant_compiles() -> None:
    """nvcc takes the kd_half stand-in where a plain __half meets float arithmetic (the
    softmax sample's ``expf(xr[j] - row_max)``, ambiguous with __half): not_run, not stillborn."""
    p = loader.load_problem(ROOT / "problems" / "softmax")
    sample = next(s for s in p.samples if s.path.name == "cuda_simple.cu")
    m = next(m for m in mutants_of(sample) if m.id == "cuda_simple.cu:half_accumulator:22:1")
    assert m.after == "kd_half row_max = s[0];"
    res = grader.grade(p, m.source, "cuda", device="cpu", mode="run", sanitize=False)
    assert res.verdict == Verdict.NOT_RUN, res.compile.log if res.compile else res.message


def test_mutants_toml_is_checked(tmp_path: Path) -> None:
    (tmp_path / "mutants.toml").write_text('[equivalent]\n"a.py:lt_le:3:1" = ""\n')
    with pytest.raises(ProblemError, match="one-line reason"):
        equivalents.load(tmp_path)
    (tmp_path / "mutants.toml").write_text('[equivalent]\n"a.py:lt_le" = "why"\n')
    with pytest.raises(ProblemError, match="sample:operator:line:ordinal"):
        equivalents.load(tmp_path)
    (tmp_path / "mutants.toml").write_text('[equivalent]\n"a.py:lt_le:3:1" = " why "\n')
    assert equivalents.load(tmp_path) == {"a.py:lt_le:3:1": "why"}
