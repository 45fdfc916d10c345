# expect: wrong_answer
# expect-message: out of tolerance
# Bug: reads the channels in BGR order, as OpenCV stores images: channel 0 of a pixel is taken
# for blue and channel 2 for red, so the weights 0.299 and 0.114 go to the wrong colours and a
# pure red pixel comes out 0.114 instead of 0.299. The input here is RGB. The fix: red is
# rgb_ref.at[r, c, 0].
"""Pallas RGB to grayscale, 8 x 128 tiles through index arrays (as pallas_simple.py), with the
red and blue channels swapped."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

TH, TW = 8, 128


def gray_kernel(rgb_ref, y_ref, *, h, w):
    rows = pl.program_id(0) * TH + jnp.arange(TH)
    cols = pl.program_id(1) * TW + jnp.arange(TW)
    inside = (rows[:, None] < h) & (cols[None, :] < w)
    r = jnp.minimum(rows, h - 1)[:, None]
    c = jnp.minimum(cols, w - 1)[None, :]

    def channel(k):
        return plgpu.load(rgb_ref.at[r, c, k], mask=inside, other=0).astype(jnp.float32)

    blue, green, red = channel(0), channel(1), channel(2)  # BUG: channel 0 is red
    plgpu.store(y_ref, (0.299 * red + 0.587 * green + 0.114 * blue) / 255.0, mask=inside)


def solve(rgb: jax.Array, y: jax.ShapeDtypeStruct, h: int, w: int) -> jax.Array:
    return pl.pallas_call(
        functools.partial(gray_kernel, h=h, w=w),
        out_shape=y,
        grid=(pl.cdiv(h, TH), pl.cdiv(w, TW)),
        out_specs=pl.BlockSpec(block_shape=(TH, TW), index_map=lambda i, j: (i, j)),
    )(rgb)
