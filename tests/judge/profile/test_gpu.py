"""Profile and sanitize through the whole judge on a GPU (``-m gpu`` on a GPU host: the runner
under ncu and compute-sanitizer in the sandbox). benchmarks/profile_latency.py measures them."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge import grader
from judge.problem import loader
from judge.profile import tools
from judge.results import GradeResult
from judge.verdicts import Verdict
from tests.conftest import ROOT

pytestmark = pytest.mark.gpu
SAMPLES = ROOT / "problems" / "vector-add" / "solutions"


def grade(rel: str, mode: str, tmp_path: Path) -> GradeResult:
    path = SAMPLES / rel
    lang = "cuda" if path.suffix == ".cu" else "triton"
    return grader.grade(
        loader.resolve("vector-add"),
        path.read_text(),
        lang,
        device="cuda",
        mode=mode,
        report_dir=tmp_path,
    )


def test_memcheck_finds_the_missing_bounds_check(tmp_path: Path) -> None:
    res = grade("rejected/wrong_answer_no_bounds_check.cu", "run", tmp_path)
    assert res.verdict == Verdict.WRONG_ANSWER  # the sanitizer changes no verdict
    san = res.sanitizer
    assert san is not None and san.tool == "memcheck", san
    first = san.findings[0]
    assert (first.file, first.line) == ("solution.cu", 11), san
    assert "past the end of" in first.message, first.message


def test_memcheck_maps_a_triton_kernel_to_its_line(tmp_path: Path) -> None:
    res = grade("rejected/wrong_answer_no_mask.py", "run", tmp_path)
    san = res.sanitizer
    assert san is not None and san.findings, san
    assert {(f.file, f.line) for f in san.findings} <= {("solution.py", n) for n in (17, 18, 19)}


def test_profile_of_the_editorial(tmp_path: Path) -> None:
    res = grade("accepted/triton_fast.py", "profile", tmp_path)
    p = res.profile
    assert p is not None
    if not p.enabled:  # a host whose counters are closed to the sandbox: said, not failed
        assert p.message.startswith(tools.NOT_ENABLED), p.message
        return
    assert res.verdict == Verdict.ACCEPTED, res.message
    assert p.kernels and all(k.duration_us and k.dram_gbps for k in p.kernels), p
    assert p.hints and p.roofline is not None and p.roofline.bound == "memory"
    assert p.report_file and (tmp_path / p.report_file).stat().st_size == p.report_bytes
