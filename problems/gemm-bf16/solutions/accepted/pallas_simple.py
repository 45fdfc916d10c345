"""Pallas bf16 GEMM: one kernel instance per 64 x 64 tile of c, looping over k in steps of 32.
The bf16 tile products (jnp.dot: tensor cores) are summed in a float32 accumulator and c is
rounded to bf16 once, at the store. Every load and the store are masked, since m, n and k need
not be multiples of the tile."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

BM, BN, BK = 64, 64, 32


def gemm_kernel(a_ref, b_ref, c_ref, *, m, n, k):
    rows = pl.program_id(0) * BM + jnp.arange(BM)
    cols = pl.program_id(1) * BN + jnp.arange(BN)

    def step(s, acc):
        ks = s * BK + jnp.arange(BK)
        a = plgpu.load(
            a_ref.at[:, pl.ds(s * BK, BK)], mask=(rows[:, None] < m) & (ks[None, :] < k), other=0.0
        )
        b = plgpu.load(
            b_ref.at[pl.ds(s * BK, BK), :], mask=(ks[:, None] < k) & (cols[None, :] < n), other=0.0
        )
        return acc + jnp.dot(a, b, preferred_element_type=jnp.float32)

    acc = jax.lax.fori_loop(0, pl.cdiv(k, BK), step, jnp.zeros((BM, BN), jnp.float32))
    plgpu.store(c_ref, acc.astype(c_ref.dtype), mask=(rows[:, None] < m) & (cols[None, :] < n))


def solve(a: jax.Array, b: jax.Array, c: jax.ShapeDtypeStruct, m: int, n: int, k: int):
    kp = pl.cdiv(k, BK) * BK  # each instance sees its rows of a and columns of b, all of k
    return pl.pallas_call(
        functools.partial(gemm_kernel, m=m, n=n, k=k),
        out_shape=c,
        grid=(pl.cdiv(m, BM), pl.cdiv(n, BN)),
        in_specs=[
            pl.BlockSpec(block_shape=(BM, kp), index_map=lambda i, j: (i, 0)),
            pl.BlockSpec(block_shape=(kp, BN), index_map=lambda i, j: (0, j)),
        ],
        out_specs=pl.BlockSpec(block_shape=(BM, BN), index_map=lambda i, j: (i, j)),
    )(a, b)
