"""Pallas causal softmax: one kernel instance per row of scores, as triton_simple.py.

Row ``r`` of the flattened [b·h·s, s] matrix is query position i = r mod s. The instance loads
the whole row (one power-of-two block of columns, masked at s), keeps columns 0..i and does the
softmax in float32: scale, subtract the maximum, exponentiate, divide by the sum. Columns above
the diagonal get exp(-inf) = 0, so one store writes the whole row."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu


def causal_softmax_kernel(x_ref, scale_ref, y_ref, *, s, block):
    i = pl.program_id(0) % s  # the query position: columns 0..i are kept
    cols = jnp.arange(block)
    in_row = cols < s
    x = plgpu.load(x_ref, mask=in_row, other=0.0).astype(jnp.float32)
    z = jnp.where(cols <= i, x * scale_ref[0], -jnp.inf)
    p = jnp.exp(z - jnp.max(z))
    y = p / jnp.sum(p)
    plgpu.store(y_ref, y.astype(jnp.float16), mask=in_row)


def solve(
    x: jax.Array, scale: jax.Array, y: jax.ShapeDtypeStruct, b: int, h: int, s: int
) -> jax.Array:
    block = pl.next_power_of_2(s)
    rows = b * h * s
    # each instance sees one row (the row axis squeezed), rounded up to the block
    row = pl.BlockSpec(block_shape=(None, block), index_map=lambda r: (r, 0))
    out = pl.pallas_call(
        functools.partial(causal_softmax_kernel, s=s, block=block),
        out_shape=jax.ShapeDtypeStruct((rows, s), y.dtype),
        grid=(rows,),
        in_specs=[row, pl.BlockSpec(block_shape=(1,), index_map=lambda r: (0,))],
        out_specs=row,
    )(x.reshape(rows, s), scale)
    return out.reshape(y.shape)
