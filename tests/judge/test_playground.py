"""The playground's one custom case on the CPU: the learner's sizes and seed, outputs beside the
reference's, the kernel's prints, and parameters outside the limits refused (judge/playground.py)."""

from __future__ import annotations

import pytest

from judge import playground
from judge.problem.loader import load_problem
from tests.conftest import problems_root
from tests.samples import VECTOR_ADD

PRINTS = VECTOR_ADD.replace(
    "def solve(a, b, c, n):\n", 'def solve(a, b, c, n):\n    print("playground n =", n)\n'
)
WRONG = VECTOR_ADD.replace("def solve(a, b, c, n):\n", "def solve(a, b, c, n):\n    b.zero_()\n")


@pytest.fixture(scope="module")
def problem():  # type: ignore[no-untyped-def]
    return load_problem(problems_root() / "vector-add")


def test_custom_sizes_outputs_and_prints(problem) -> None:  # type: ignore[no-untyped-def]
    res = playground.run(problem, PRINTS, "triton", {"n": 37}, seed=1, device="cpu")
    assert res["verdict"] == "accepted", res["message"]
    assert [c["name"] for c in res["cases"]] == ["playground: n = 37"]
    assert "playground n = 37" in res["stdout"]
    play = res["playground"]
    out = play["outputs"]["c"]
    assert out["got"]["shape"] == [37] and len(out["got"]["values"]) == 37
    assert out["got"]["values"] == pytest.approx(out["expected"]["values"], rel=1e-6)
    assert play["mismatches"] == {"c": []}
    # the seed decides the inputs: the same seed, the same inputs
    again = playground.run(problem, VECTOR_ADD, "triton", {"n": 37}, seed=1, device="cpu")
    assert again["playground"]["inputs"] == play["inputs"]


def test_literal_input_and_a_wrong_kernel(problem) -> None:  # type: ignore[no-untyped-def]
    lit = {"a": [1, 2, 3], "b": [10.5, 20, 30]}
    res = playground.run(problem, WRONG, "triton", {"n": 3}, seed=0, literals=lit, device="cpu")
    assert res["verdict"] == "wrong_answer"
    play = res["playground"]
    assert play["inputs"]["a"]["values"] == [1.0, 2.0, 3.0]
    assert play["outputs"]["c"]["expected"]["values"] == [11.5, 22.0, 33.0]
    assert play["outputs"]["c"]["got"]["values"] == [1.0, 2.0, 3.0]
    assert play["mismatches"] == {"c": [0, 1, 2]}
    assert not res["cases"][0]["passed"] and res["cases"][0]["message"]


@pytest.mark.parametrize(
    ("params", "literals", "says"),
    [
        ({"n": 0}, None, "between 1 and"),
        ({"n": 10**9}, None, "between 1 and"),
        ({"m": 3}, None, "no integer parameter"),
        ({"n": 2}, {"a": [1, "x"]}, "only finite numbers"),
        ({"n": 2}, {"a": [1, 2, 3]}, "needs 2"),
        ({"n": 2}, {"c": [1, 2]}, "not an input"),
    ],
)
def test_refused(problem, params, literals, says) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(playground.PlaygroundError, match=says):
        playground.run(problem, VECTOR_ADD, "triton", params, literals=literals, device="cpu")


def test_sizes_the_generator_refuses_are_said_so() -> None:
    """top-k's generator cannot draw k distinct values out of fewer than k."""
    problem = load_problem(problems_root() / "top-k")
    res = playground.run(
        problem, "def solve(*args):\n    pass\n", "triton", {"k": 64, "v": 3}, device="cpu"
    )
    assert res["verdict"] == "rejected", res
    assert "breaks a constraint of the problem's" in res["message"], res["message"]


def test_cuda_on_the_cpu_is_compiled_and_not_run(problem) -> None:  # type: ignore[no-untyped-def]
    src = (problems_root() / "vector-add/solutions/accepted/cuda_simple.cu").read_text()
    res = playground.run(problem, src, "cuda", {"n": 4}, device="cpu")
    assert res["verdict"] == "not_run" and "no GPU" in res["message"]
