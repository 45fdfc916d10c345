# expect: wrong_answer
# Bug: ties settled the wrong way. Equal values are taken from the highest column down
# instead of the lowest up (the order is "larger value first, then higher column"), so on rows
# with repeated values the right values come back with the wrong columns. The fix: among equal
# values, the lowest column first (min of the columns, and "past the previous one" upward).
"""Pallas top-k by repeated selection (as pallas_simple.py), ties taken from the last column."""

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
            after = valid & (
                (x < prev_val) | ((x == prev_val) & (cols < prev_idx))
            )  # BUG: downward
            top = jnp.max(jnp.where(after, x, -jnp.inf))
            col = jnp.max(jnp.where(after & (x == top), cols, -1))
            better = (top > best_val) | ((top == best_val) & (col > best_idx))
            return jnp.where(better, top, best_val), jnp.where(better, col, best_idx)

        val, col = jax.lax.fori_loop(0, steps, scan, (jnp.float32(-jnp.inf), jnp.int32(-1)))
        vals = jnp.where(lanes == t, val, vals)
        idx = jnp.where(lanes == t, col, idx)
        return val, col, vals, idx

    start = (
        jnp.float32(jnp.inf),
        jnp.int32(NONE),
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
