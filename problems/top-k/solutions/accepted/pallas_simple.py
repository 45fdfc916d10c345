"""Pallas top-k by repeated selection: one kernel instance per row, k passes over the row.

The answer's order is "larger value first, then lower column". Pass t finds the t-th element
in that order as the first element that comes after the (t-1)-th: among the columns j with
x[j] < previous value, or x[j] equal to it and j past the previous column, the largest value,
and the lowest column holding it. The first pass starts from (+inf, column -1), so +inf and -inf
values are found like any other. A pass reads the row in chunks of up to 1024 and merges each
chunk's winner into a running one. k passes of the whole row: k times the reads of a one-pass
selection (triton_fast.py sorts packed keys instead), but no sort, no atomics, and every
tie settled by the column."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

K_MAX = 64  # the problem's largest k; a row's answer is built in 64 lanes
NONE = 2**31 - 1  # "no column yet"


def topk_kernel(x_ref, vals_ref, idx_ref, *, v, k, chunk):
    steps = pl.cdiv(v, chunk)
    lanes = jnp.arange(K_MAX)

    def select(t, state):
        prev_val, prev_idx, vals, idx = state

        def scan(j, best):
            best_val, best_idx = best
            cols = j * chunk + jnp.arange(chunk)
            valid = cols < v
            x = plgpu.load(x_ref.at[pl.ds(j * chunk, chunk)], mask=valid, other=-jnp.inf)
            after = valid & ((x < prev_val) | ((x == prev_val) & (cols > prev_idx)))
            top = jnp.max(jnp.where(after, x, -jnp.inf))
            col = jnp.min(jnp.where(after & (x == top), cols, NONE))
            better = (top > best_val) | ((top == best_val) & (col < best_idx))
            return jnp.where(better, top, best_val), jnp.where(better, col, best_idx)

        val, col = jax.lax.fori_loop(0, steps, scan, (jnp.float32(-jnp.inf), jnp.int32(NONE)))
        vals = jnp.where(lanes == t, val, vals)
        idx = jnp.where(lanes == t, col, idx)
        return val, col, vals, idx

    start = (
        jnp.float32(jnp.inf),
        jnp.int32(-1),
        jnp.zeros((K_MAX,), jnp.float32),
        jnp.zeros((K_MAX,), jnp.int32),
    )
    _, _, vals, idx = jax.lax.fori_loop(0, k, select, start)
    plgpu.store(vals_ref.at[pl.ds(0, K_MAX)], vals, mask=lanes < k)
    plgpu.store(idx_ref.at[pl.ds(0, K_MAX)], idx, mask=lanes < k)


def solve(
    x: jax.Array, vals: jax.ShapeDtypeStruct, idx: jax.ShapeDtypeStruct, b: int, v: int, k: int
):
    chunk = min(1024, pl.next_power_of_2(v))
    width = pl.cdiv(v, chunk) * chunk  # each instance sees its whole row, in whole chunks
    return pl.pallas_call(
        functools.partial(topk_kernel, v=v, k=k, chunk=chunk),
        out_shape=(vals, idx),
        grid=(b,),
        in_specs=[pl.BlockSpec(block_shape=(None, width), index_map=lambda r: (r, 0))],
        out_specs=[
            pl.BlockSpec(block_shape=(None, K_MAX), index_map=lambda r: (r, 0)),
            pl.BlockSpec(block_shape=(None, K_MAX), index_map=lambda r: (r, 0)),
        ],
    )(x)
