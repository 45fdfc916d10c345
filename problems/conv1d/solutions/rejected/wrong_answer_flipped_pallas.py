"""Pallas 1-D convolution where the problem asks for a cross-correlation: the taps are read
flipped (w[k - 1 - j]), which only agrees when w is symmetric."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

BLOCK = 1024


def conv_kernel(x_ref, w_ref, y_ref, *, n, k):
    start = pl.program_id(0) * BLOCK
    outs = start + jnp.arange(BLOCK)
    valid = outs < n - k + 1

    def tap(j, acc):
        x = plgpu.load(x_ref.at[pl.ds(start + j, BLOCK)], mask=valid, other=0.0)
        return acc + x * plgpu.load(w_ref.at[pl.ds(k - 1 - j, 1)])

    acc = jax.lax.fori_loop(0, k, tap, jnp.zeros((BLOCK,), jnp.float32))
    plgpu.store(y_ref, acc, mask=valid)


def solve(x: jax.Array, w: jax.Array, y: jax.ShapeDtypeStruct, n: int, k: int) -> jax.Array:
    # Every instance sees all of x and w, rounded up so that a block's shifted window ends
    # inside what it sees (the loads past n - k + j are masked).
    xp = (pl.cdiv(n, BLOCK) + 1) * BLOCK
    return pl.pallas_call(
        functools.partial(conv_kernel, n=n, k=k),
        out_shape=y,
        grid=(pl.cdiv(n - k + 1, BLOCK),),
        in_specs=[
            pl.BlockSpec(block_shape=(xp,), index_map=lambda i: (0,)),
            pl.BlockSpec(block_shape=(pl.next_power_of_2(k),), index_map=lambda i: (0,)),
        ],
        out_specs=pl.BlockSpec(block_shape=(BLOCK,), index_map=lambda i: (i,)),
    )(x, w)
