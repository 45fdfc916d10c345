"""Pallas byte histogram without atomics: privatised counts, then a sum.

Each kernel instance counts its 4096 bytes into its own 256 counters, 64 bytes at a time:
a 64 x 256 comparison of the bytes with every bin value, summed down the bytes (a one-hot
count). Its 256 counts go to its own row of a partials array, so no two instances write the
same place. A second kernel, a single instance, adds the rows. The result is exact whatever
order the instances run in; it does about 256 times the comparisons an atomic histogram does,
which is why the fast samples use atomics on privatised shared-memory counts instead."""

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
        hits = (byte[:, None] == values[None, :]) & valid[:, None]  # past n: counted nowhere
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
