"""Pallas stream compaction in three kernels (count, scan, scatter), as triton_simple.py:

1. each instance counts the x > 0 in its block of BLOCK elements;
2. one instance scans the block counts, with a running carry, into each block's first output
   position, and writes the total into count;
3. each instance finds the kept elements of its block again, numbers them with a cumsum of
   the keep flags (minus one: the first kept element goes to position 0 of the block's run),
   and stores them at the block's position plus that number (a scatter through an index array).

Order is kept: blocks write to consecutive runs in block order, and within a block the cumsum
numbers kept elements in input order. x is read twice."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

BLOCK = 1024  # elements per instance
CHUNK = 1024  # block counts per step of the scan


def count_kernel(x_ref, counts_ref, *, n):
    offs = pl.program_id(0) * BLOCK + jnp.arange(BLOCK)
    x = plgpu.load(x_ref, mask=offs < n, other=0.0)
    counts_ref[...] = jnp.full((1,), jnp.sum((x > 0).astype(jnp.int32)))


def positions_kernel(counts_ref, starts_ref, count_ref, *, blocks):
    def step(j, carry):
        offs = j * CHUNK + jnp.arange(CHUNK)
        mask = offs < blocks
        c = plgpu.load(counts_ref.at[pl.ds(j * CHUNK, CHUNK)], mask=mask, other=0)
        plgpu.store(starts_ref.at[pl.ds(j * CHUNK, CHUNK)], carry + jnp.cumsum(c) - c, mask=mask)
        return carry + jnp.sum(c)

    total = jax.lax.fori_loop(0, pl.cdiv(blocks, CHUNK), step, jnp.int32(0))
    count_ref[...] = jnp.full((1,), total)


def scatter_kernel(x_ref, start_ref, out_ref, *, n):
    offs = pl.program_id(0) * BLOCK + jnp.arange(BLOCK)
    x = plgpu.load(x_ref, mask=offs < n, other=0.0)
    keep = x > 0  # NaN and both zeros are not > 0
    where = start_ref[0] + jnp.cumsum(keep.astype(jnp.int32)) - 1
    # Lanes not kept point past the end: masked, they write nothing (and Pallas' interpreter,
    # which rewrites every lane of a masked store, drops them instead of clobbering a kept one).
    plgpu.store(out_ref.at[jnp.where(keep, where, n)], x, mask=keep)


def solve(x: jax.Array, out: jax.ShapeDtypeStruct, count: jax.ShapeDtypeStruct, n: int):
    blocks = pl.cdiv(n, BLOCK)
    block = pl.BlockSpec(block_shape=(BLOCK,), index_map=lambda i: (i,))
    one = pl.BlockSpec(block_shape=(1,), index_map=lambda i: (i,))
    counts = pl.pallas_call(
        functools.partial(count_kernel, n=n),
        out_shape=jax.ShapeDtypeStruct((blocks,), jnp.int32),
        grid=(blocks,),
        in_specs=[block],
        out_specs=one,
    )(x)
    # the scan's one instance sees all block counts, in whole chunks
    padded = pl.BlockSpec(block_shape=(pl.cdiv(blocks, CHUNK) * CHUNK,), index_map=lambda i: (0,))
    starts, total = pl.pallas_call(
        functools.partial(positions_kernel, blocks=blocks),
        out_shape=(jax.ShapeDtypeStruct((blocks,), jnp.int32), count),
        grid=(1,),
        in_specs=[padded],
        out_specs=(padded, pl.BlockSpec(block_shape=(1,), index_map=lambda i: (0,))),
    )(counts)
    values = pl.pallas_call(
        functools.partial(scatter_kernel, n=n),
        out_shape=out,
        grid=(blocks,),
        # every instance may write anywhere in out
        in_specs=[block, one],
        out_specs=pl.BlockSpec(block_shape=(n,), index_map=lambda i: (0,)),
    )(x, starts)
    return values, total
