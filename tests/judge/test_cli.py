"""The ``kerneldojo grade`` contract (DESIGN.md): JSON shape, verdicts, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VA = ROOT / "problems" / "vector-add"


def grade(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "judge.cli", "grade", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )


def grade_json(*args: str) -> dict:
    proc = grade(*args, "--json")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, "--json prints exactly one line"
    return json.loads(lines[0])


def test_accepted_triton_on_cpu_interpreter() -> None:
    d = grade_json("vector-add", str(VA / "solutions/accepted/triton_fast.py"), "--device", "cpu")
    assert d["verdict"] == "accepted"
    assert d["device"] == "cpu-interpreter"
    assert d["benchmark"] == []
    assert d["cases"] and all(c["passed"] for c in d["cases"])
    assert {"name", "passed", "message"} <= set(d["cases"][0])


def test_wrong_answer_names_the_case_without_leaking_inputs(tmp_path: Path) -> None:
    d = grade_json(
        "vector-add", str(VA / "solutions/rejected/wrong_answer_tail.py"), "--device", "cpu"
    )
    assert d["verdict"] == "wrong_answer"
    failed = [c for c in d["cases"] if not c["passed"]]
    assert failed and all(c["message"] for c in failed)
    assert "expected" in failed[0]["message"] and "got" in failed[0]["message"]


def test_path_to_problem_folder_and_explicit_language(tmp_path: Path) -> None:
    src = tmp_path / "kernel.txt"
    src.write_text((VA / "solutions/accepted/triton_simple.py").read_text())
    d = grade_json(str(VA), str(src), "--language", "triton", "--device", "cpu")
    assert d["verdict"] == "accepted" and d["problem"] == "vector-add"


def test_compile_errors_are_verdicts_not_crashes(tmp_path: Path) -> None:
    bad_py = tmp_path / "bad.py"
    bad_py.write_text("def solve(a, b, c, n)\n    pass\n")
    d = grade_json("vector-add", str(bad_py), "--device", "cpu")
    assert d["verdict"] == "compile_error" and "line 1" in d["message"]
    bad_cu = tmp_path / "bad.cu"
    bad_cu.write_text(
        'extern "C" void solve(const float* a, const float* b, float* c, int n) { oops; }\n'
    )
    d = grade_json("vector-add", str(bad_cu), "--device", "cpu")
    assert d["verdict"] == "compile_error"
    assert "oops" in d["compile"]["log"] and "/sandbox" not in d["compile"]["log"]


def test_cuda_without_gpu_is_compiled_and_not_run() -> None:
    d = grade_json("vector-add", str(VA / "solutions/accepted/cuda_fast.cu"), "--device", "cpu")
    assert d["verdict"] == "not_run"
    assert d["compile"]["ok"] is True


def test_cannot_grade_exits_nonzero(tmp_path: Path) -> None:
    src = tmp_path / "x.py"
    src.write_text("def solve(): pass\n")
    proc = grade("no-such-problem", str(src), "--device", "cpu", "--json")
    assert proc.returncode != 0 and "no such problem" in proc.stderr
    proc = grade("vector-add", str(src), "--language", "fortran", "--device", "cpu")
    assert proc.returncode != 0


@pytest.mark.parametrize("extra", [[], ["--mode", "run"]])
def test_human_output_shows_progress_and_table(extra: list[str]) -> None:
    proc = grade(
        "vector-add", str(VA / "solutions/rejected/wrong_answer_tail.py"), "--device", "cpu", *extra
    )
    assert proc.returncode == 0
    assert "testing 1/" in proc.stderr and "compiling" in proc.stderr
    assert "Wrong Answer" in proc.stdout and "Test cases" in proc.stdout


def test_the_table_keeps_brackets_and_names_what_the_cpu_skipped() -> None:
    """#37, item 6: "c[n]" in a message is text, not Rich markup that vanishes; a passing case
    shows its error against the tolerance; the GPU-only cases are named."""
    wide = {**os.environ, "COLUMNS": "250"}  # no wrapping inside the messages
    proc = grade(
        "vector-add",
        str(VA / "solutions/rejected/wrong_answer_no_mask.py"),
        "--device",
        "cpu",
        env=wide,
    )
    assert proc.returncode == 0
    table = proc.stdout.split("Test cases")[1]
    assert "at c[n]" in table, table  # "c: wrote past the end, at c[n] (...)", in the table too
    proc = grade(
        "vector-add", str(VA / "solutions/accepted/triton_simple.py"), "--device", "cpu", env=wide
    )
    assert "× tol" in proc.stdout
    assert "e+" not in proc.stdout.split("Test cases")[1]  # no absolute errors on passing cases
    assert "3 more test cases run only on a GPU and were not run here: n = 2^22 + 3" in proc.stdout


def test_problems_list_shows_whole_slugs_on_a_narrow_terminal() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "judge.cli", "problems", "list"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "COLUMNS": "60"},
        timeout=120,
    )
    assert proc.returncode == 0
    for slug in ("gemm-fp8-blockscaled", "causal-gqa-attention", "rmsnorm-residual"):
        assert slug in proc.stdout


def test_language_is_inferred_from_the_registrys_suffixes(tmp_path: Path) -> None:
    from judge.cli import infer_language

    assert infer_language(tmp_path / "x.py") == "triton"
    assert infer_language(tmp_path / "x.cu") == "cuda"
    assert infer_language(tmp_path / "x.txt") is None


def test_language_choices_come_from_the_registry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from judge import languages
    from judge.cli import app
    from tests import fake_language

    src = tmp_path / "x.fk"
    src.write_text("pass\n")
    runner = CliRunner()
    r = runner.invoke(app, ["grade", "no-such-problem", str(src)])
    known = " or ".join(languages.names())  # triton or cuda or pytorch or numba
    # the message is wrapped at the terminal's width: compared with its spaces collapsed
    assert r.exit_code == 2 and f"language must be {known} (got None)" in " ".join(r.output.split())
    r = runner.invoke(app, ["grade", "no-such-problem", str(src), "--language", "cobol"])
    assert f"language must be {known} (got 'cobol')" in " ".join(r.output.split())
    fake_language.register(monkeypatch)
    for extra in ([], ["--language", "fakelang"]):  # inferred from .fk, or named
        r = runner.invoke(app, ["grade", "no-such-problem", str(src), *extra])
        assert r.exit_code == 2 and "language must" not in r.output, r.output
        assert "no-such-problem" in r.output  # it got as far as looking up the problem


# The web stack and the worker, made unimportable: what a bare GPU host with torch, triton and
# numpy (and the CLI's typer and rich, with what they need) has.
WITHOUT_THE_WEB = """
import importlib.abc, runpy, sys
GONE = {"fastapi", "starlette", "sqlmodel", "sqlalchemy", "celery", "kombu", "redis", "jinja2",
        "alembic", "uvicorn", "psycopg", "argon2", "app", "worker"}
class Gone(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in GONE:
            raise ImportError(f"{name} is not installed on this host")
sys.meta_path.insert(0, Gone())
sys.argv = ["judge.cli", *sys.argv[1:]]
runpy.run_module("judge.cli", run_name="__main__")
"""


def test_the_judge_grades_without_the_web_stack() -> None:
    src = VA / "solutions/accepted/triton_simple.py"
    argv = ["grade", "vector-add", str(src), "--device", "cpu", "--json"]
    proc = subprocess.run(
        [sys.executable, "-c", WITHOUT_THE_WEB, *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert json.loads(proc.stdout)["verdict"] == "accepted"
