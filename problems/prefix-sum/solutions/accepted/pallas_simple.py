"""Pallas inclusive scan in three kernels: reduce, scan the block sums, scan each block.

1. Each kernel instance sums its 4096 elements into one partial.
2. One instance turns the partials into exclusive offsets (each block's starting sum).
3. Each instance scans its block from its offset, 32 elements at a time, carrying the
   running sum from one group of 32 to the next.

A group of 32 is scanned without a scan primitive: y[i] = the sum of x[j] for j <= i, a 32 x 32
lower-triangular mask applied to the group and summed along a row. That is 32 times the
additions of a sequential scan, on values already in registers. int32 adds wrap as the
problem's reference does."""

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
        plgpu.store(o_ref.at[pl.ds(j * G, G)], inclusive - v, mask=idx < count)  # exclusive
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
