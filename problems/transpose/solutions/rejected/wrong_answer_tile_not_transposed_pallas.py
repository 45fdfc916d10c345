"""Pallas transpose that moves the tiles but not the elements within them: each 32 x 32 tile of
x lands in the right place of y untransposed, so only the diagonal of each tile is right."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

T = 32


def transpose_kernel(x_ref, y_ref, *, m, n):
    # This instance writes y[i*T : (i+1)*T, j*T : (j+1)*T], from x[j*T : ..., i*T : ...].
    ys = pl.program_id(0) * T + jnp.arange(T)  # rows of y, columns of x (< n)
    xs = pl.program_id(1) * T + jnp.arange(T)  # columns of y, rows of x (< m)
    tile = plgpu.load(x_ref, mask=(xs[:, None] < m) & (ys[None, :] < n), other=0.0)
    plgpu.store(y_ref, tile, mask=(ys[:, None] < n) & (xs[None, :] < m))


def solve(x: jax.Array, y: jax.ShapeDtypeStruct, m: int, n: int) -> jax.Array:
    return pl.pallas_call(
        functools.partial(transpose_kernel, m=m, n=n),
        out_shape=y,
        grid=(pl.cdiv(n, T), pl.cdiv(m, T)),
        in_specs=[pl.BlockSpec(block_shape=(T, T), index_map=lambda i, j: (j, i))],
        out_specs=pl.BlockSpec(block_shape=(T, T), index_map=lambda i, j: (i, j)),
    )(x)
