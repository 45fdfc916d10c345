# expect: wrong_answer
# Bug: every point is updated, the boundary too: its missing neighbours come from the clamped
# index arrays, so a boundary point averages in copies of itself and of its edge (as if the
# edge were insulated) instead of keeping its value. The fix: jnp.where(interior, mean, c).
"""Pallas 2-D heat equation (as pallas_simple.py) without the fixed boundary."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

T = 32  # the tile's rows and columns


def step_kernel(src_ref, dst_ref, *, h, w):
    rows = (pl.program_id(0) * T + jnp.arange(T))[:, None]
    cols = (pl.program_id(1) * T + jnp.arange(T))[None, :]
    inside = (rows < h) & (cols < w)

    def at(di, dj):
        r = jnp.clip(rows + di, 0, h - 1)
        c = jnp.clip(cols + dj, 0, w - 1)
        return plgpu.load(src_ref.at[r, c], mask=inside)

    mean = 0.2 * (at(0, 0) + at(-1, 0) + at(1, 0) + at(0, -1) + at(0, 1))
    plgpu.store(dst_ref, mean, mask=inside)  # BUG: the boundary must keep its value


def solve(u: jax.Array, out: jax.ShapeDtypeStruct, h: int, w: int, steps: int) -> jax.Array:
    step = pl.pallas_call(
        functools.partial(step_kernel, h=h, w=w),
        out_shape=out,
        grid=(pl.cdiv(h, T), pl.cdiv(w, T)),
        out_specs=pl.BlockSpec(block_shape=(T, T), index_map=lambda i, j: (i, j)),
    )
    grid = u
    for _ in range(steps):
        grid = step(grid)
    return grid
