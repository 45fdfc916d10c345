"""JAX Pallas (judge/languages/pallas.py): only Pallas kernels compute. The rule on the
source (refused before any process starts), the rule on the traced program (what the runner
checks before JAX compiles), starters, and gradings of the toy problem under the interpreter."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from judge import languages
from judge.grader import grade
from judge.languages import pallas_rules, policy
from judge.problem import loader as problem_folders
from judge.problem.loader import load_problem
from tests.conftest import FIXTURE_PROBLEMS

ROOT = Path(__file__).resolve().parents[3]

HEAD = """import functools

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu


def add_kernel(a_ref, b_ref, c_ref):
    c_ref[...] = a_ref[...] + b_ref[...]


"""
GOOD = HEAD + "def solve(a, b, c, n):\n    return pl.pallas_call(add_kernel, out_shape=c)(a, b)\n"


def _static(body: str) -> str | None:
    found = pallas_rules.check_source(HEAD + body)
    return None if found is None else str(found)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("def solve(a, b, c, n):\n    return jnp.add(a, b)\n", "`jax.numpy.add` is not allowed"),
        ("def solve(a, b, c, n):\n    return lax.add(a, b)\n", "`jax.lax.add`"),
        ("def solve(a, b, c, n):\n    return jax.nn.relu(a)\n", "`jax.nn.relu`"),
        ("from jax.numpy import sum as total\n\ndef solve(x, o, n):\n    return total(x)\n", "sum"),
        ("np = jnp\n\ndef solve(a, b, c, n):\n    return np.matmul(a, b)\n", "jax.numpy.matmul"),
        (  # a helper that only solve calls is host code
            "def helper(x):\n    return jnp.exp(x)\n\ndef solve(a, b, c, n):\n    return helper(a)\n",
            "jax.numpy.exp",
        ),
        ("def solve(a, b, c, n):\n    return jax.pure_callback(print, c, a)\n", "host Python"),
        ("def solve(a, b, c, n):\n    jax.config.update('jax_enable_x64', True)\n", "judge's JAX"),
        ("def solve(a, b, c, n):\n    return jax.dlpack.from_dlpack(a)\n", "moves the data"),
        ("import jaxlib\n\ndef solve(a, b, c, n):\n    pass\n", "native"),
    ],
)
def test_the_source_rule_refuses_compute_outside_kernels(body: str, words: str) -> None:
    found = _static(body)
    assert found is not None and "is not allowed here" in found and words in found, found


@pytest.mark.parametrize(
    "body",
    [
        "def solve(a, b, c, n):\n    return pl.pallas_call(add_kernel, out_shape=c)(a, b)\n",
        # kernel code: given to pallas_call directly, through partial or a lambda, and helpers
        "def k(x_ref, o_ref, *, n):\n    o_ref[...] = jnp.exp(x_ref[...]) + helper(n)\n\n"
        "def helper(n):\n    return jnp.float32(n) * jnp.sqrt(2.0)\n\n"
        "def solve(x, o, n):\n    return pl.pallas_call(functools.partial(k, n=n), out_shape=o)(x)\n",
        "def k(x_ref, o_ref, n):\n    o_ref[...] = lax.fori_loop(0, n, lambda i, v: v * 2, x_ref[...])\n\n"
        "def solve(x, o, n):\n    return pl.pallas_call(lambda x_ref, o_ref: k(x_ref, o_ref, n), "
        "out_shape=o)(x)\n",
        # plumbing outside: reshapes, constants, dtypes
        "def solve(a, b, c, n):\n    z = jnp.zeros((1,), jnp.float32)\n"
        "    a2 = jnp.reshape(a, (n, 1))\n    return pl.pallas_call(add_kernel, out_shape=c)(a, b)\n",
    ],
)
def test_the_source_rule_allows_kernels_and_plumbing(body: str) -> None:
    assert _static(body) is None
    assert policy.check_python(HEAD + body) is None  # the shared policy takes JAX's dtypes


# -- the traced program -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def traced() -> dict[str, str | None]:
    """pallas_traced's cases, checked in a child process (JAX's threads stay out of this one)."""
    proc = subprocess.run(
        [sys.executable, "-m", "tests.judge.languages.pallas_traced"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return dict(json.loads(proc.stdout.splitlines()[-1]))


@pytest.mark.parametrize(
    ("case", "words"),
    [
        ("operator", "`add` computes on your data"),
        ("method", "`reduce_sum` computes on your data"),
        ("kernel output combined", "`mul` computes on your data"),
        ("nested jit", "`rev` computes on your data"),
        ("slice", "`slice` computes on your data"),
        ("cast", "`convert_element_type` computes on your data"),
        ("callback on a constant", "runs host code on every call"),
        ("kernel, other mode", "interpret mode is the judge's"),
    ],
)
def test_the_traced_program_refuses(traced: dict[str, str | None], case: str, words: str) -> None:
    assert words in str(traced[case]), traced[case]


@pytest.mark.parametrize(
    "case", ["kernel", "reshapes", "constants", "unit axes in a nested jit", "input returned"]
)
def test_the_traced_program_allows(traced: dict[str, str | None], case: str) -> None:
    assert traced[case] is None


# -- starters and gradings ----------------------------------------------------------------------
def test_starters_for_every_problem_pass_both_rules() -> None:
    lang = languages.require("pallas")
    for p in problem_folders.load_all(problem_folders.REPO_PROBLEMS).problems:
        src = lang.generate_starter(p)
        compile(src, "solution.py", "exec")
        assert policy.check_python(src) is None, p.slug
        assert pallas_rules.check_source(src) is None, p.slug
        assert f"def solve({', '.join(a.name for a in p.args)}):" in src


def _grade(source: str, **kw: Any) -> Any:
    return grade(load_problem(FIXTURE_PROBLEMS / "toy-add"), source, "pallas", device="cpu", **kw)


def test_a_pallas_kernel_is_accepted_on_the_cpu() -> None:
    r = _grade(GOOD)
    assert r.verdict == "accepted", r.message
    assert r.device == "cpu-interpreter"


@pytest.mark.parametrize(
    ("tail", "verdict", "words"),
    [
        # past the source rule, the runner's check of the traced program refuses it
        ("    return a + b\n", "rejected", "`add` computes on your data outside a Pallas kernel"),
        (  # the wrong shape: refused before it is compiled
            "    return pl.pallas_call(add_kernel, out_shape=jax.ShapeDtypeStruct((1, n), c.dtype))"
            "(a.reshape(1, n), b.reshape(1, n))\n",
            "wrong_answer",
            "solve returned output 1 with shape (1, 3) float32; the problem wants (3,) float32",
        ),
    ],
)
def test_what_the_runner_refuses(tail: str, verdict: str, words: str) -> None:
    r = _grade(HEAD + "def solve(a, b, c, n):\n" + tail, static_policy=False)
    assert r.verdict == verdict, r.message
    assert words in r.message


def test_solve_must_return_its_outputs() -> None:
    from judge.languages.pallas import _as_outputs
    from judge.languages.runtime import SubmissionError

    class Array:  # what _as_outputs looks at: a shape
        shape = (2,)

    x = Array()
    assert _as_outputs(x, 1) == (x,) and _as_outputs([x, x], 2) == (x, x)
    with pytest.raises(SubmissionError, match="returned None"):
        _as_outputs(None, 1)
    with pytest.raises(SubmissionError, match=r"its 2 output arrays .* returned a tuple of 1"):
        _as_outputs((x,), 2)
