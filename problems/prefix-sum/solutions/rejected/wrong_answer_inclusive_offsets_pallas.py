# expect: wrong_answer
# Bug: off by one block in the offsets. The second kernel stores the inclusive scan of the
# block sums, so each block starts from the sum up to and including itself instead of the
# sum of the blocks before it: every element is too large by its own block's total. The
# first block is wrong too, unless its elements add to 0. The fix: store inclusive - v, the
# exclusive scan (a block's offset is what comes before it).
"""Pallas inclusive scan in three kernels (as pallas_simple.py), with inclusive block offsets."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

BLOCK = 4096  # elements per instance
G = 32  # elements scanned at a time


def _scan_group(v):
    """Inclusive scan of a (G,) vector: row i sums the v[j] with j <= i."""
    lower = jnp.arange(G)[:, None] >= jnp.arange(G)[None, :]
    return jnp.sum(jnp.where(lower, v[None, :], 0), axis=1)


def sum_kernel(x_ref, p_ref, *, n):
    start = pl.program_id(0) * BLOCK

    def step(j, acc):
        offs = start + j * G + jnp.arange(G)
        return acc + plgpu.load(x_ref.at[pl.ds(j * G, G)], mask=offs < n, other=0)

    p_ref[...] = jnp.sum(
        jax.lax.fori_loop(0, BLOCK // G, step, jnp.zeros((G,), jnp.int32)), keepdims=True
    )


def offsets_kernel(p_ref, o_ref, *, count):
    def step(j, carry):
        idx = j * G + jnp.arange(G)
        v = plgpu.load(p_ref.at[pl.ds(j * G, G)], mask=idx < count, other=0)
        inclusive = _scan_group(v) + carry
        plgpu.store(o_ref.at[pl.ds(j * G, G)], inclusive, mask=idx < count)  # BUG: inclusive
        return carry + jnp.sum(v)

    jax.lax.fori_loop(0, pl.cdiv(count, G), step, jnp.int32(0))


def scan_kernel(x_ref, o_ref, y_ref, *, n):
    start = pl.program_id(0) * BLOCK

    def step(j, carry):
        offs = start + j * G + jnp.arange(G)
        valid = offs < n
        v = plgpu.load(x_ref.at[pl.ds(j * G, G)], mask=valid, other=0)
        plgpu.store(y_ref.at[pl.ds(j * G, G)], _scan_group(v) + carry, mask=valid)
        return carry + jnp.sum(v)

    jax.lax.fori_loop(0, BLOCK // G, step, jnp.sum(o_ref[...]))


def solve(x: jax.Array, y: jax.ShapeDtypeStruct, n: int) -> jax.Array:
    count = pl.cdiv(n, BLOCK)
    rounded = pl.cdiv(count, G) * G  # the offsets kernel reads and writes whole groups
    block = pl.BlockSpec(block_shape=(BLOCK,), index_map=lambda i: (i,))
    one = pl.BlockSpec(block_shape=(1,), index_map=lambda i: (i,))
    partials = pl.pallas_call(
        functools.partial(sum_kernel, n=n),
        out_shape=jax.ShapeDtypeStruct((rounded,), jnp.int32),
        grid=(count,),
        in_specs=[block],
        out_specs=one,
    )(x)
    offsets = pl.pallas_call(
        functools.partial(offsets_kernel, count=count),
        out_shape=jax.ShapeDtypeStruct((rounded,), jnp.int32),
    )(partials)
    return pl.pallas_call(
        functools.partial(scan_kernel, n=n),
        out_shape=y,
        grid=(count,),
        in_specs=[block, one],
        out_specs=block,
    )(x, offsets)
