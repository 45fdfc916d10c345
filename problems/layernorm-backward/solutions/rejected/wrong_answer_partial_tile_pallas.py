# expect: wrong_answer
# expect-message: dgamma
# Bug: the walk down the rows takes m // CHUNK_M tiles, rounding down: the rows of the last,
# partial tile are left out of dgamma and dbeta (all of them when m < CHUNK_M = 16). The
# masks in each tile are right, so the fix is only the count: pl.cdiv(m, CHUNK_M). dx is right.
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

CHUNK_M = 16
CHUNK_N = 32


def dx_kernel(x_ref, dy_ref, gamma_ref, mean_ref, rstd_ref, dx_ref, *, n, chunk):
    steps = pl.cdiv(n, chunk)
    mu = mean_ref[0]
    rs = rstd_ref[0]

    def load(ref, j):
        offs = j * chunk + jnp.arange(chunk)
        return plgpu.load(ref.at[pl.ds(j * chunk, chunk)], mask=offs < n, other=0.0)

    def sums(j, acc):
        g = load(dy_ref, j) * load(gamma_ref, j)
        return acc[0] + g, acc[1] + g * (load(x_ref, j) - mu) * rs

    zero = jnp.zeros((chunk,), jnp.float32)
    acc_a, acc_b = jax.lax.fori_loop(0, steps, sums, (zero, zero))
    a = jnp.sum(acc_a) / n
    b = jnp.sum(acc_b) / n

    def write(j, carry):
        offs = j * chunk + jnp.arange(chunk)
        xhat = (load(x_ref, j) - mu) * rs
        dx = rs * (load(dy_ref, j) * load(gamma_ref, j) - a - xhat * b)
        plgpu.store(dx_ref.at[pl.ds(j * chunk, chunk)], dx, mask=offs < n)
        return carry

    jax.lax.fori_loop(0, steps, write, None)


def columns_kernel(x_ref, dy_ref, mean_ref, rstd_ref, dgamma_ref, dbeta_ref, *, m, n):
    c0 = pl.program_id(0) * CHUNK_N
    cols = c0 + jnp.arange(CHUNK_N)

    def step(i, acc):
        rows = i * CHUNK_M + jnp.arange(CHUNK_M)
        mask = (rows[:, None] < m) & (cols[None, :] < n)
        tile = (pl.ds(i * CHUNK_M, CHUNK_M), pl.ds(c0, CHUNK_N))
        x = plgpu.load(x_ref.at[tile], mask=mask, other=0.0)
        dy = plgpu.load(dy_ref.at[tile], mask=mask, other=0.0)
        mu = plgpu.load(mean_ref.at[pl.ds(i * CHUNK_M, CHUNK_M)], mask=rows < m, other=0.0)
        rs = plgpu.load(rstd_ref.at[pl.ds(i * CHUNK_M, CHUNK_M)], mask=rows < m, other=0.0)
        return acc[0] + dy * (x - mu[:, None]) * rs[:, None], acc[1] + dy

    zero = jnp.zeros((CHUNK_M, CHUNK_N), jnp.float32)
    acc_g, acc_b = jax.lax.fori_loop(0, m // CHUNK_M, step, (zero, zero))
    plgpu.store(dgamma_ref.at[pl.ds(0, CHUNK_N)], jnp.sum(acc_g, axis=0), mask=cols < n)
    plgpu.store(dbeta_ref.at[pl.ds(0, CHUNK_N)], jnp.sum(acc_b, axis=0), mask=cols < n)


def solve(
    x: jax.Array,
    dy: jax.Array,
    gamma: jax.Array,
    mean: jax.Array,
    rstd: jax.Array,
    dx: jax.ShapeDtypeStruct,
    dgamma: jax.ShapeDtypeStruct,
    dbeta: jax.ShapeDtypeStruct,
    m: int,
    n: int,
):
    chunk = min(1024, pl.next_power_of_2(n))
    width = pl.cdiv(n, chunk) * chunk  # each instance sees its whole row, in whole chunks
    row_spec = pl.BlockSpec(block_shape=(None, width), index_map=lambda r: (r, 0))
    vec_spec = pl.BlockSpec(block_shape=(width,), index_map=lambda r: (0,))
    one_spec = pl.BlockSpec(block_shape=(1,), index_map=lambda r: (r,))
    dx_out = pl.pallas_call(
        functools.partial(dx_kernel, n=n, chunk=chunk),
        out_shape=dx,
        grid=(m,),
        in_specs=[row_spec, row_spec, vec_spec, one_spec, one_spec],
        out_specs=row_spec,
    )(x, dy, gamma, mean, rstd)
    # no in_specs: every instance sees all of x, dy, mean and rstd; it writes CHUNK_N columns
    col_spec = pl.BlockSpec(block_shape=(CHUNK_N,), index_map=lambda c: (c,))
    dgamma_out, dbeta_out = pl.pallas_call(
        functools.partial(columns_kernel, m=m, n=n),
        out_shape=(dgamma, dbeta),
        grid=(pl.cdiv(n, CHUNK_N),),
        out_specs=(col_spec, col_spec),
    )(x, dy, mean, rstd)
    return dx_out, dgamma_out, dbeta_out
