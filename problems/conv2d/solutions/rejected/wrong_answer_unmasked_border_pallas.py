# expect: wrong_answer
# Bug: the shifted tile's indices are clamped into x, but the load is not masked, so a tap that
# falls outside x reads x's nearest edge element instead of 0: the border is padded by
# replicating the edge, not by zeros. Every output within r // 2 of the border is wrong (all of
# them when the filter is larger than the image); the inner ones are right. The fix: load with
# mask=inside, other=0.0, the lanes whose shifted position is inside x.
"""Pallas 2-D convolution (as pallas_simple.py), with the edge replicated at the border."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

T = 32  # the tile's rows and columns


def conv_kernel(x_ref, f_ref, y_ref, *, h, w, r):
    half = r // 2
    rows = pl.program_id(0) * T + jnp.arange(T)
    cols = pl.program_id(1) * T + jnp.arange(T)

    def filter_row(a, acc):
        s = rows[:, None] + (a - half)  # x's rows for this row of taps, (T, 1)

        def tap(b, acc):
            u = cols[None, :] + (b - half)  # x's columns, (1, T)
            shifted = x_ref.at[jnp.clip(s, 0, h - 1), jnp.clip(u, 0, w - 1)]
            return acc + plgpu.load(shifted) * f_ref[a, b]  # no mask: the edge repeats

        return jax.lax.fori_loop(0, r, tap, acc)

    acc = jax.lax.fori_loop(0, r, filter_row, jnp.zeros((T, T), jnp.float32))
    plgpu.store(y_ref, acc, mask=(rows[:, None] < h) & (cols[None, :] < w))


def solve(x: jax.Array, f: jax.Array, y: jax.ShapeDtypeStruct, h: int, w: int, r: int):
    return pl.pallas_call(
        functools.partial(conv_kernel, h=h, w=w, r=r),
        out_shape=y,
        grid=(pl.cdiv(h, T), pl.cdiv(w, T)),
        out_specs=pl.BlockSpec(block_shape=(T, T), index_map=lambda i, j: (i, j)),
    )(x, f)
