"""Pallas RGB to grayscale: one kernel instance per 8 x 128 tile of y, one pixel per lane.

rgb is given whole (no BlockSpec) and read through index arrays: the tile's rows as a column
(TH, 1), its columns as a row (1, TW) and the channel as a number, so `rgb_ref.at[r, c, 0]` is
the (TH, TW) tile of red bytes, and 1 and 2 give green and blue. A block of rgb would need a
trailing axis of 3, which is not a power of 2 (Triton's lowering wants one), and a stride-3
`pl.ds` load of the interleaved bytes does not run in Pallas' interpreter: index arrays do both.
The edge tiles hang over the image, so the rows and columns are clamped into it (no address
leaves rgb) and the loads and the store are masked. The bytes are unsigned (uint8 to float32
is exact) and the luma is the float32 formula."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

TH, TW = 8, 128  # the tile's rows and columns: 1024 pixels


def gray_kernel(rgb_ref, y_ref, *, h, w):
    rows = pl.program_id(0) * TH + jnp.arange(TH)
    cols = pl.program_id(1) * TW + jnp.arange(TW)
    inside = (rows[:, None] < h) & (cols[None, :] < w)
    r = jnp.minimum(rows, h - 1)[:, None]  # clamped: edge tiles read a pixel of the image
    c = jnp.minimum(cols, w - 1)[None, :]

    def channel(k):  # channel k of the tile's pixels, as float32
        return plgpu.load(rgb_ref.at[r, c, k], mask=inside, other=0).astype(jnp.float32)

    red, green, blue = channel(0), channel(1), channel(2)
    plgpu.store(y_ref, (0.299 * red + 0.587 * green + 0.114 * blue) / 255.0, mask=inside)


def solve(rgb: jax.Array, y: jax.ShapeDtypeStruct, h: int, w: int) -> jax.Array:
    return pl.pallas_call(
        functools.partial(gray_kernel, h=h, w=w),
        out_shape=y,
        grid=(pl.cdiv(h, TH), pl.cdiv(w, TW)),
        out_specs=pl.BlockSpec(block_shape=(TH, TW), index_map=lambda i, j: (i, j)),
    )(rgb)
