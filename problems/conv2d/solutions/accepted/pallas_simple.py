"""Pallas 2-D convolution ("same" size, zero padding): one kernel instance per 32 x 32 tile of
y, summing r x r taps. Tap (a, b) reads the tile of x shifted by (a - r//2, b - r//2) through
index arrays of its rows and columns, clamped into x so that no address leaves it; the masked
load gives 0 where the shifted tile lies outside x, which is the zero padding.

The taps are two nested loops, over a and then b. One loop over a * r + b split with // and %
would not lower for a GPU: Pallas' Triton lowering fails on `t % r` of a loop index
(AssertionError: ('i32', 'i1'), which an earlier sample met on an H100), though the interpreter
runs it."""

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
            inside = (s >= 0) & (s < h) & (u >= 0) & (u < w)
            shifted = x_ref.at[jnp.clip(s, 0, h - 1), jnp.clip(u, 0, w - 1)]
            return acc + plgpu.load(shifted, mask=inside, other=0.0) * f_ref[a, b]

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
