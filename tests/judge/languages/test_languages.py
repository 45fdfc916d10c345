"""The language registry (judge/languages/): what it lists, and starters written from a
problem's signature when the folder has no hand-written one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from judge import languages
from judge.languages import policy
from judge.problem.loader import load_problem
from tests.conftest import FIXTURE_PROBLEMS

ROOT = Path(__file__).resolve().parents[3]


def test_registry_lists_the_languages_in_menu_order() -> None:
    assert languages.names() == (
        "triton",
        "cuda",
        "pytorch",
        "numba",
        "pallas",
        "helion",
        "mojo",
    )
    assert languages.default().name == "triton"
    assert languages.by_suffix(".py") is languages.get("triton")  # the suffix's first
    assert languages.by_suffix(".cu") is languages.get("cuda")
    assert languages.by_suffix(".txt") is None and languages.get("fortran") is None
    with pytest.raises(
        ValueError, match="use one of triton, cuda, pytorch, numba, pallas, helion, mojo"
    ):
        languages.require("fortran")


@pytest.mark.parametrize(
    ("filename", "source", "expected"),
    [
        ("a.py", "import torch\nimport triton\n", "triton"),
        ("a.py", "import torch\n", "pytorch"),
        ("a.py", "from numba import cuda\nimport torch\n", "numba"),
        ("numba_fast.py", "", "numba"),
        ("a.py", "import jax\nfrom jax.experimental import pallas as pl\n", "pallas"),
        ("a.py", "from jax.experimental import pallas as pl\nimport torch\n", "pallas"),
        ("wrong_answer_tail_pallas.py", "import jax\n", "pallas"),
        ("a.py", "import helion\nimport helion.language as hl\nimport torch\n", "helion"),
        ("wrong_answer_half_helion.py", "import helion\nimport torch\n", "helion"),
        ("pytorch_simple.py", "import triton\n", "pytorch"),  # the file name wins over imports
        ("a.py", "# language: pytorch\nimport triton\n", "pytorch"),  # a header wins over all
        ("a.py", "# language: cuda\nimport torch\n", "pytorch"),  # not a .py language: ignored
        ("a.py", "", "triton"),  # nothing says: the suffix's first
        ("a.cu", "// language: cuda\n", "cuda"),
        ("a.txt", "import torch\n", None),
    ],
)
def test_a_sources_language_is_inferred(filename: str, source: str, expected: str | None) -> None:
    got = languages.infer(filename, source)
    assert (got.name if got else None) == expected


def test_what_each_language_declares() -> None:
    public = {lang.name: lang.public() for lang in languages.all()}
    assert public["triton"] == {
        "name": "triton",
        "label": "Triton",
        "menu_label": "Triton (Python)",
        "suffix": ".py",
        "editor_mode": "python",
        "track": "kernel",
        "runs_on_cpu": True,
    }
    assert public["cuda"]["track"] == "kernel" and public["cuda"]["runs_on_cpu"] is False
    assert public["pytorch"]["track"] == "framework" and public["pytorch"]["suffix"] == ".py"
    assert public["numba"]["track"] == "kernel" and public["numba"]["runs_on_cpu"] is True
    assert public["pallas"]["track"] == "kernel" and public["pallas"]["runs_on_cpu"] is True
    assert public["helion"] == {
        "name": "helion",
        "label": "Helion",
        "menu_label": "Helion (Python)",
        "suffix": ".py",
        "editor_mode": "python",
        "track": "kernel",
        "runs_on_cpu": True,
    }


def test_each_languages_runner_variables() -> None:
    """Set in every runner (runners start before the language is known): each language's own."""
    from judge.sandbox.runner_client import runner_env

    cpu, gpu = runner_env("cpu"), runner_env("cuda")
    assert cpu["TRITON_INTERPRET"] == "1" and cpu["NUMBA_ENABLE_CUDASIM"] == "1"
    assert "TRITON_INTERPRET" not in gpu and "NUMBA_ENABLE_CUDASIM" not in gpu
    assert cpu["XLA_PYTHON_CLIENT_PREALLOCATE"] == gpu["XLA_PYTHON_CLIENT_PREALLOCATE"] == "false"
    assert cpu["JAX_PLATFORMS"] == "cpu" and gpu["JAX_PALLAS_USE_MOSAIC_GPU"] == "false"


def test_every_language_has_both_sides_of_the_judge() -> None:
    """What the judge calls (prepare in the referee, load in the runner) is each language's own."""
    from judge.languages.base import Language

    for lang in languages.all():
        assert type(lang).prepare is not Language.prepare, lang
        assert type(lang).load is not Language.load, lang


@pytest.fixture
def bare_problem(tmp_path: Path) -> Path:
    """toy-add without its starter/ folder."""
    folder = tmp_path / "toy-add"
    shutil.copytree(FIXTURE_PROBLEMS / "toy-add", folder)
    shutil.rmtree(folder / "starter")
    return folder


def test_a_problem_without_starters_gets_generated_ones(bare_problem: Path) -> None:
    p = load_problem(bare_problem)  # starter/ is optional
    py = languages.require("triton").starter(p)
    assert "def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, n: int):" in py
    assert "solve_kernel[grid](a, b, c, n, BLOCK=BLOCK)" in py
    compile(py, "solution.py", "exec")
    assert policy.check_python(py) is None
    cu = languages.require("cuda").starter(p)
    assert 'extern "C" void solve(const float* a, const float* b, float* c, int n) {' in cu
    assert "int total = n;" in cu and "solve_kernel<<<blocks, threads>>>(a, b, c, n);" in cu


def test_a_hand_written_starter_overrides(bare_problem: Path) -> None:
    (bare_problem / "starter").mkdir()
    (bare_problem / "starter" / "solution.cu").write_text("// mine\n")
    p = load_problem(bare_problem)
    assert languages.require("cuda").starter(p) == "// mine\n"
    assert "@triton.jit" in languages.require("triton").starter(
        p
    )  # the other one is still generated


@pytest.mark.parametrize(
    "slug", ["vector-add", "reduction", "softmax", "matmul", "flash-attention"]
)
def test_generated_starters_for_the_core_problems(slug: str) -> None:
    p = load_problem(ROOT / "problems" / slug)
    py = languages.require("triton").generate_starter(p)
    compile(py, "solution.py", "exec")
    assert policy.check_python(py) is None
    assert (
        languages.require("triton").signature(p).removesuffix(":").split("(")[1].rstrip(")") in py
    )
    cu = languages.require("cuda").generate_starter(p)
    assert languages.require("cuda").signature(p) + " {" in cu
    assert ("#include <cuda_fp16.h>" in cu) == (slug == "flash-attention")
