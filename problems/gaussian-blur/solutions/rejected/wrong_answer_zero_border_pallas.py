# expect: wrong_answer
# Bug: the shifted index is clamped, but a tap whose position leaves the image is also masked
# off (other=0.0), the zero-padding habit of a convolution: the border pixels lose that
# weight instead of reading the edge pixel.
"""Pallas separable blur (as pallas_simple.py) with zeros at the border."""

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
            i = rows + b - radius
            at = src_ref.at[jnp.clip(i, 0, h - 1), cols_in]
            keep = inside & (i >= 0) & (i < h)  # BUG: a clamped tap must be kept
        else:
            j = cols + b - radius
            at = src_ref.at[rows_in, jnp.clip(j, 0, w - 1)]
            keep = inside & (j >= 0) & (j < w)  # BUG: likewise
        return acc + g_ref[b] * plgpu.load(at, mask=keep, other=0.0)

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
