"""The language registry (worker/grading/languages/): what it lists, and starters written from a
problem's signature when the folder has no hand-written one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import FIXTURE_PROBLEMS
from worker.grading import languages, policy
from worker.grading.schema import load_problem

ROOT = Path(__file__).resolve().parents[3]


def test_registry_lists_the_two_languages_in_menu_order() -> None:
    assert languages.names() == ("triton", "cuda")
    assert languages.default().name == "triton"
    assert languages.by_suffix(".py") is languages.get("triton")
    assert languages.by_suffix(".cu") is languages.get("cuda")
    assert languages.by_suffix(".txt") is None and languages.get("fortran") is None
    with pytest.raises(ValueError, match="use one of triton, cuda"):
        languages.require("fortran")


def test_what_each_language_declares() -> None:
    assert [lang.public() for lang in languages.all()] == [
        {
            "name": "triton",
            "label": "Triton",
            "menu_label": "Triton (Python)",
            "suffix": ".py",
            "editor_mode": "python",
            "track": "kernel",
            "runs_on_cpu": True,
        },
        {
            "name": "cuda",
            "label": "CUDA",
            "menu_label": "CUDA C++",
            "suffix": ".cu",
            "editor_mode": "cpp",
            "track": "kernel",
            "runs_on_cpu": False,
        },
    ]


@pytest.fixture
def bare_problem(tmp_path: Path) -> Path:
    """toy-add without its starter/ folder."""
    folder = tmp_path / "toy-add"
    shutil.copytree(FIXTURE_PROBLEMS / "toy-add", folder)
    shutil.rmtree(folder / "starter")
    return folder


def test_a_problem_without_starters_gets_generated_ones(bare_problem: Path) -> None:
    p = load_problem(bare_problem)  # starter/ is optional
    py = p.starter("triton")
    assert "def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, n: int):" in py
    assert "solve_kernel[grid](a, b, c, n, BLOCK=BLOCK)" in py
    compile(py, "solution.py", "exec")
    assert policy.check_python(py) is None
    cu = p.starter("cuda")
    assert 'extern "C" void solve(const float* a, const float* b, float* c, int n) {' in cu
    assert "int total = n;" in cu and "solve_kernel<<<blocks, threads>>>(a, b, c, n);" in cu


def test_a_hand_written_starter_overrides(bare_problem: Path) -> None:
    (bare_problem / "starter").mkdir()
    (bare_problem / "starter" / "solution.cu").write_text("// mine\n")
    p = load_problem(bare_problem)
    assert p.starter("cuda") == "// mine\n"
    assert "@triton.jit" in p.starter("triton")  # the other one is still generated


@pytest.mark.parametrize(
    "slug", ["vector-add", "reduction", "softmax", "matmul", "flash-attention"]
)
def test_generated_starters_for_the_core_problems(slug: str) -> None:
    p = load_problem(ROOT / "problems" / slug)
    py = languages.require("triton").generate_starter(p)
    compile(py, "solution.py", "exec")
    assert policy.check_python(py) is None
    assert p.triton_signature().removesuffix(":").split("(")[1].rstrip(")") in py
    cu = languages.require("cuda").generate_starter(p)
    assert p.cuda_signature() + " {" in cu
    assert ("#include <cuda_fp16.h>" in cu) == (slug == "flash-attention")
