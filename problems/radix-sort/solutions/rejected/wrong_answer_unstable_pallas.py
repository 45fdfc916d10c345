# expect: wrong_answer
# expect-message: not in ascending order
# Bug: the scatter ranks an element among the LATER elements of its block with the same digit
# (the block's count of that digit minus the cumulative sum up to and including it), so each
# block writes its equal digits in reverse. Every key still lands in its digit's range, so one
# pass alone sorts by its digit; but the next pass reverses what the previous ones ordered, so
# keys come out unsorted and equal keys lose their values' input order. The fix: count the
# earlier elements (the cumulative sum minus the element itself).
"""Pallas stable key-value sort (as pallas_simple.py), ranking equal digits from the end."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

BITS = 4
RADIX = 1 << BITS
BLOCK = 1024  # elements per instance
CHUNK = 1024  # table entries scanned at a time


def _digits(k, valid, shift_ref):
    """The one-hot [BLOCK, RADIX] matrix of each key's digit; rows past n are all zero."""
    d = ((k >> shift_ref[0].astype(k.dtype)) & (RADIX - 1)).astype(jnp.int32)
    return ((d[:, None] == jnp.arange(RADIX)[None, :]) & valid[:, None]).astype(jnp.int32)


def count_kernel(keys_ref, shift_ref, counts_ref, *, n):
    valid = pl.program_id(0) * BLOCK + jnp.arange(BLOCK) < n
    onehot = _digits(plgpu.load(keys_ref, mask=valid, other=0), valid, shift_ref)
    counts_ref[...] = jnp.sum(onehot, axis=0).reshape(RADIX, 1)


def offsets_kernel(counts_ref, slots_ref, *, total):
    def step(j, carry):
        inside = j * CHUNK + jnp.arange(CHUNK) < total
        c = plgpu.load(counts_ref.at[pl.ds(j * CHUNK, CHUNK)], mask=inside, other=0)
        plgpu.store(slots_ref.at[pl.ds(j * CHUNK, CHUNK)], carry + jnp.cumsum(c) - c, mask=inside)
        return carry + jnp.sum(c)

    jax.lax.fori_loop(0, pl.cdiv(total, CHUNK), step, jnp.int32(0))


def scatter_kernel(keys_ref, vals_ref, slots_ref, shift_ref, keys_out, vals_out, *, n):
    valid = pl.program_id(0) * BLOCK + jnp.arange(BLOCK) < n
    k = plgpu.load(keys_ref, mask=valid, other=0)
    v = plgpu.load(vals_ref, mask=valid, other=0)
    onehot = _digits(k, valid, shift_ref)
    later = jnp.sum(onehot, axis=0)[None, :] - jnp.cumsum(onehot, axis=0)
    rank = jnp.sum(later * onehot, axis=1)  # later elements with the same digit
    slot = jnp.sum(onehot * slots_ref[...].reshape(1, RADIX), axis=1)  # this block's, its digit
    # Lanes past n store nothing on a GPU. The interpreter's masked scatter writes the old
    # value back at a masked lane's index, which could undo a real store there: n, outside the
    # arrays, it drops.
    dst = jnp.where(valid, slot + rank, n)
    plgpu.store(keys_out.at[dst], k, mask=valid)
    plgpu.store(vals_out.at[dst], v, mask=valid)


def solve(keys: jax.Array, vals: jax.Array, n: int):
    blocks = pl.cdiv(n, BLOCK)
    block = pl.BlockSpec(block_shape=(BLOCK,), index_map=lambda i: (i,))
    column = pl.BlockSpec(block_shape=(RADIX, 1), index_map=lambda i: (0, i))
    table = jax.ShapeDtypeStruct((RADIX, blocks), jnp.int32)
    scalar = pl.BlockSpec(block_shape=(1,), index_map=lambda i: (0,))
    for shift in range(0, 32, BITS):
        # The digit as data, not a constant: the three kernels compile once per n, not per pass.
        at = jnp.full((1,), shift, jnp.int32)
        counts = pl.pallas_call(
            functools.partial(count_kernel, n=n),
            out_shape=table,
            grid=(blocks,),
            in_specs=[block, scalar],
            out_specs=column,
        )(keys, at)
        slots = pl.pallas_call(
            functools.partial(offsets_kernel, total=RADIX * blocks),
            out_shape=jax.ShapeDtypeStruct((RADIX * blocks,), jnp.int32),
        )(counts.reshape(RADIX * blocks))
        keys, vals = pl.pallas_call(
            functools.partial(scatter_kernel, n=n),
            out_shape=(
                jax.ShapeDtypeStruct(keys.shape, keys.dtype),
                jax.ShapeDtypeStruct(vals.shape, vals.dtype),
            ),
            grid=(blocks,),
            in_specs=[block, block, column, scalar],
        )(keys, vals, slots.reshape(RADIX, blocks), at)
    return keys, vals
