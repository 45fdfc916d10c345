"""What keeps ``problems check`` affordable on a CPU: its gradings stop at the first failing case,
the CUDA shim is compiled once per process and linked into every submission, and a CUDA
grading on the CPU (compiled only) leaves the pool's started runner for the next grading."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from judge import grader, languages
from judge.build import compilers
from judge.problem import loader
from judge.sandbox.runner_client import RunnerPool
from judge.verdicts import Verdict


def test_a_check_grading_stops_at_the_first_failing_case() -> None:
    p = loader.resolve("vector-add")
    sample = next(s for s in p.samples if s.path.name == "wrong_answer_tail.py")
    lang = languages.require("triton")
    total = sum(1 for c in p.tests if lang.runs_on_cpu_case(p, c))
    res = grader.grade(
        p,
        sample.path.read_text(),
        "triton",
        device="cpu",
        mode="run",
        sanitize=False,
        all_cases=False,
    )
    assert res.verdict == Verdict.WRONG_ANSWER, res.message
    *passed, failed = res.cases
    assert all(c.passed for c in passed) and not failed.passed
    assert len(res.cases) < total  # the later cases were not run
    assert res.message.startswith(
        f"case {len(res.cases)} of {total} failed (the rest not run); first: {failed.name}: "
    )
    assert sample.message_ok(res.message)


def test_the_shim_is_compiled_once_and_linked_into_each_submission(tmp_path: Path) -> None:
    source = loader.resolve("vector-add").path / "solutions" / "accepted" / "cuda_simple.cu"
    nvcc = compilers.nvcc_path()
    assert nvcc is not None, "nvcc is needed: the check compiles every CUDA sample"
    libs = []
    for name in ("one", "two"):
        work = tmp_path / name
        work.mkdir()
        work.chmod(0o777)
        shutil.copy(source, work / "solution.cu")
        res, lib, violation = compilers.compile_cuda(work / "solution.cu", work, 120.0)
        assert res.ok, res.log
        assert lib is not None and violation is None
        assert (work / "kerneldojo_shim.o").is_file() and not (work / "kerneldojo_shim.cu").exists()
        libs.append(lib)
    assert len(compilers._shim_objects) == 1  # the second submission reused the first's shim
    for lib in libs:
        defined = subprocess.run(
            ["nm", "--defined-only", str(lib)], capture_output=True, text=True, check=True
        ).stdout
        assert "kerneldojo_sync" in defined and "kerneldojo_error_string" in defined
        assert " solve" in defined


def test_every_sample_language_runs_a_case_on_the_cpu() -> None:
    """A language's CPU size limit (``cpu_max_elements``) must leave each problem's samples in it
    a case to pass or fail: with none, an accepted sample would pass vacuously."""
    few = []
    for p in loader.load_all().problems:
        for name in sorted({s.language for s in p.samples}):
            lang = languages.require(name)
            if lang.runs_on_cpu:
                n = sum(1 for c in p.tests if lang.runs_on_cpu_case(p, c))
                if n == 0:
                    few.append((p.slug, name, n))
    assert few == []


def test_a_cuda_grading_on_the_cpu_takes_no_runner_from_the_pool() -> None:
    p = loader.resolve("vector-add")
    sample = next(s for s in p.samples if s.path.name == "cuda_simple.cu")
    pool = RunnerPool("cpu", size=1)
    try:
        spare = pool._ready[0]
        res = grader.grade(p, sample.path.read_text(), "cuda", device="cpu", mode="run", pool=pool)
        assert res.verdict == Verdict.NOT_RUN, res.message
        assert list(pool._ready) == [spare]  # still there, still the same process
        assert spare.proc.popen.poll() is None
    finally:
        pool.close()
