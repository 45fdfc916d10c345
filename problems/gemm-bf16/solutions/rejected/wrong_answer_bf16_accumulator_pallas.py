"""Pallas bf16 GEMM whose running sum is kept in bf16: each tile product is computed in float32
but the accumulator is rounded back to bf16 after every k-step, k / 32 roundings in all. On the
long k case (k = 2500) the output drifts past the relative L2 limit."""

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
        return (acc + jnp.dot(a, b, preferred_element_type=jnp.float32)).astype(jnp.bfloat16)

    acc = jax.lax.fori_loop(0, pl.cdiv(k, BK), step, jnp.zeros((BM, BN), jnp.bfloat16))
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
