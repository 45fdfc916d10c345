"""Pallas separable blur: two pallas_calls, one kernel instance per 32 x 32 tile each. The
horizontal pass reads, for tap b, the tile's columns shifted by b - R through an index array
clamped into the image (the clamp-to-edge border); its result is a new array, which the
vertical pass reads the same way along rows. The taps are a loop over b."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

T = 32  # the tile's rows and columns


def pass_kernel(src_ref, g_ref, dst_ref, *, h, w, r, along_rows):
    rows = (pl.program_id(0) * T + jnp.arange(T))[:, None]
    cols = (pl.program_id(1) * T + jnp.arange(T))[None, :]
    inside = (rows < h) & (cols < w)
    radius = r // 2
    rows_in = jnp.clip(rows, 0, h - 1)
    cols_in = jnp.clip(cols, 0, w - 1)

    def tap(b, acc):
        if along_rows:
            at = src_ref.at[jnp.clip(rows + b - radius, 0, h - 1), cols_in]
        else:
            at = src_ref.at[rows_in, jnp.clip(cols + b - radius, 0, w - 1)]
        return acc + g_ref[b] * plgpu.load(at, mask=inside, other=0.0)

    acc = jax.lax.fori_loop(0, r, tap, jnp.zeros((T, T), jnp.float32))
    plgpu.store(dst_ref, acc, mask=inside)


def solve(x: jax.Array, g: jax.Array, y: jax.ShapeDtypeStruct, h: int, w: int, r: int):
    def blur_pass(src, along_rows):
        return pl.pallas_call(
            functools.partial(pass_kernel, h=h, w=w, r=r, along_rows=along_rows),
            out_shape=y,
            grid=(pl.cdiv(h, T), pl.cdiv(w, T)),
            out_specs=pl.BlockSpec(block_shape=(T, T), index_map=lambda i, j: (i, j)),
        )(src, g)

    return blur_pass(blur_pass(x, False), True)
