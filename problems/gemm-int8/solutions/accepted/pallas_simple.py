"""Pallas int8 GEMM with scales: one kernel instance per 64 x 64 tile of c, looping over k in
steps of 32. b is stored n x k, so each step multiplies a tile of a by a transposed tile of b;
the int8 products are summed exactly in int32 (jnp.dot with an int32 result), and the epilogue
scales the sum by sa[i] * sb[j] in float32 and rounds to bf16 once. Every load and the store are
masked, since m, n and k need not be multiples of the tile."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

BM, BN, BK = 64, 64, 32


def gemm_kernel(a_ref, b_ref, sa_ref, sb_ref, c_ref, *, m, n, k):
    rows = pl.program_id(0) * BM + jnp.arange(BM)
    cols = pl.program_id(1) * BN + jnp.arange(BN)

    def step(s, acc):
        ks = s * BK + jnp.arange(BK)
        a = plgpu.load(
            a_ref.at[:, pl.ds(s * BK, BK)], mask=(rows[:, None] < m) & (ks[None, :] < k), other=0
        )
        b = plgpu.load(
            b_ref.at[:, pl.ds(s * BK, BK)], mask=(cols[:, None] < n) & (ks[None, :] < k), other=0
        )
        return acc + jnp.dot(a, b.T, preferred_element_type=jnp.int32)

    acc = jax.lax.fori_loop(0, pl.cdiv(k, BK), step, jnp.zeros((BM, BN), jnp.int32))
    sa = plgpu.load(sa_ref, mask=rows < m, other=0.0)
    sb = plgpu.load(sb_ref, mask=cols < n, other=0.0)
    c = acc.astype(jnp.float32) * sa[:, None] * sb[None, :]
    plgpu.store(c_ref, c.astype(c_ref.dtype), mask=(rows[:, None] < m) & (cols[None, :] < n))


def solve(
    a: jax.Array,
    b: jax.Array,
    sa: jax.Array,
    sb: jax.Array,
    c: jax.ShapeDtypeStruct,
    m: int,
    n: int,
    k: int,
):
    kp = pl.cdiv(k, BK) * BK  # each instance sees its rows of a and of b, all of k
    return pl.pallas_call(
        functools.partial(gemm_kernel, m=m, n=n, k=k),
        out_shape=c,
        grid=(pl.cdiv(m, BM), pl.cdiv(n, BN)),
        in_specs=[
            pl.BlockSpec(block_shape=(BM, kp), index_map=lambda i, j: (i, 0)),
            pl.BlockSpec(block_shape=(BN, kp), index_map=lambda i, j: (j, 0)),
            pl.BlockSpec(block_shape=(BM,), index_map=lambda i, j: (i,)),
            pl.BlockSpec(block_shape=(BN,), index_map=lambda i, j: (j,)),
        ],
        out_specs=pl.BlockSpec(block_shape=(BM, BN), index_map=lambda i, j: (i, j)),
    )(a, b, sa, sb)
