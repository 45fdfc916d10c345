"""A Pallas kernel that stores its ragged last block unmasked: the CPU result says what a GPU
would do (#37, item 9; judge/languages/pallas_ragged.py)."""

from __future__ import annotations

from pathlib import Path

from judge import grader
from judge.problem import loader
from judge.verdicts import Verdict

ROOT = Path(__file__).resolve().parents[3]

UNMASKED = """import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

BLOCK = 1024


def add_kernel(a_ref, b_ref, c_ref):
    c_ref[...] = a_ref[...] + b_ref[...]  # the whole block, also past n in the last one


def solve(a: jax.Array, b: jax.Array, c: jax.ShapeDtypeStruct, n: int) -> jax.Array:
    spec = pl.BlockSpec(block_shape=(BLOCK,), index_map=lambda i: (i,))
    return pl.pallas_call(
        add_kernel, out_shape=c, grid=(pl.cdiv(n, BLOCK),), in_specs=[spec, spec], out_specs=spec
    )(a, b)
"""


def test_an_unmasked_ragged_store_is_a_warning_on_the_cpu() -> None:
    res = grader.grade(loader.resolve("vector-add"), UNMASKED, "pallas", device="cpu", mode="run")
    assert res.verdict == Verdict.ACCEPTED  # the interpreter pads the block: it computes right
    said = [w for w in res.warnings if "without a mask" in w]
    assert len(said) == 1, res.warnings  # once, though every ragged size says it
    assert "blocks of 1024 that do not divide its" in said[0]
    assert "plgpu.store(ref, value, mask=...)" in said[0]


def test_the_masked_sample_has_no_such_warning() -> None:
    source = (ROOT / "problems/vector-add/solutions/accepted/pallas_simple.py").read_text()
    res = grader.grade(loader.resolve("vector-add"), source, "pallas", device="cpu", mode="run")
    assert res.verdict == Verdict.ACCEPTED
    assert not [w for w in res.warnings if "without a mask" in w]
