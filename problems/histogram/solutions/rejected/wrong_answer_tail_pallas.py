# expect: wrong_answer
# Bug: the tail. The masked load gives 0 for the lanes past n, as it should, but the count
# does not mask them again: every lane past n counts as a byte of value 0, so bin 0 gains
# up to 4095 (the rest of the last block). Right only when n is a multiple of 4096. The fix:
# "& valid" on the comparison (a masked load's "other" is a value, not an absence).
"""Pallas byte histogram, privatised counts then a sum (as pallas_simple.py), with the lanes
past n counted."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

BLOCK = 4096  # bytes per instance
SUB = 64  # bytes compared with the 256 bin values at a time
BINS = 256


def count_kernel(data_ref, p_ref, *, n):
    start = pl.program_id(0) * BLOCK
    values = jnp.arange(BINS, dtype=jnp.int32)

    def step(j, counts):
        offs = start + j * SUB + jnp.arange(SUB)
        valid = offs < n
        byte = plgpu.load(data_ref.at[pl.ds(j * SUB, SUB)], mask=valid, other=0).astype(jnp.int32)
        hits = byte[:, None] == values[None, :]  # BUG: the zeros past n are counted in bin 0
        return counts + jnp.sum(jnp.where(hits, 1, 0), axis=0)

    p_ref[...] = jax.lax.fori_loop(0, BLOCK // SUB, step, jnp.zeros((BINS,), jnp.int32))


def sum_kernel(p_ref, bins_ref, *, count):
    def step(i, acc):
        return acc + plgpu.load(p_ref.at[pl.ds(i * BINS, BINS)])

    bins_ref[...] = jax.lax.fori_loop(0, count, step, jnp.zeros((BINS,), jnp.int32))


def solve(data: jax.Array, bins: jax.ShapeDtypeStruct, n: int) -> jax.Array:
    count = pl.cdiv(n, BLOCK)
    partials = pl.pallas_call(
        functools.partial(count_kernel, n=n),
        out_shape=jax.ShapeDtypeStruct((count * BINS,), jnp.int32),
        grid=(count,),
        in_specs=[pl.BlockSpec(block_shape=(BLOCK,), index_map=lambda i: (i,))],
        out_specs=pl.BlockSpec(block_shape=(BINS,), index_map=lambda i: (i,)),
    )(data)
    return pl.pallas_call(functools.partial(sum_kernel, count=count), out_shape=bins)(partials)
