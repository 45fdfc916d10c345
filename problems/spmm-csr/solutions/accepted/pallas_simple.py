"""Pallas SpMM, the straightforward way: one kernel instance per row of A and block of T columns
of b. The instance reads its row's bounds rowptr[r] and rowptr[r + 1] and walks the entries
between them one at a time: val[e] times T columns of row col[e] of b (an index-array gather,
the columns clamped into b and masked past n), added into a float32 accumulator. An empty row
walks nothing and stores zeros."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

T = 32  # columns of b per instance


def spmm_kernel(rowptr_ref, col_ref, val_ref, b_ref, y_ref, *, n):
    r = pl.program_id(0)
    cols = pl.program_id(1) * T + jnp.arange(T)
    live = cols < n
    safe = jnp.clip(cols, 0, n - 1)

    def entry(e, acc):
        c = jnp.full((T,), col_ref[e])
        return acc + val_ref[e] * plgpu.load(b_ref.at[c, safe], mask=live, other=0.0)

    acc = jax.lax.fori_loop(rowptr_ref[r], rowptr_ref[r + 1], entry, jnp.zeros((T,), jnp.float32))
    plgpu.store(y_ref, acc[None, :], mask=live[None, :])


def solve(rowptr, col, val, b, y: jax.ShapeDtypeStruct, m: int, k: int, n: int, nnz: int) -> jax.Array:
    return pl.pallas_call(
        functools.partial(spmm_kernel, n=n),
        out_shape=y,
        grid=(m, pl.cdiv(n, T)),
        out_specs=pl.BlockSpec(block_shape=(1, T), index_map=lambda r, j: (r, j)),
    )(rowptr, col, val, b)
