"""Pallas LayerNorm with the unbiased variance (divided by n - 1, as torch.var and
jnp.var(ddof=1) give): rstd is sqrt(n / (n - 1)) too large, 8% on rows of 7, and a row of one
element divides 0 by 0."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

EPS = 1e-5


def layernorm_kernel(x_ref, gamma_ref, beta_ref, y_ref, *, n, chunk):
    steps = pl.cdiv(n, chunk)

    def load(ref, j):
        offs = j * chunk + jnp.arange(chunk)
        v = plgpu.load(ref.at[pl.ds(j * chunk, chunk)], mask=offs < n, other=0.0)
        return v.astype(jnp.float32), offs < n

    def add_x(j, acc):
        return acc + load(x_ref, j)[0]

    mean = jnp.sum(jax.lax.fori_loop(0, steps, add_x, jnp.zeros((chunk,), jnp.float32))) / n

    def add_sq(j, acc):
        x, valid = load(x_ref, j)
        return acc + jnp.where(valid, (x - mean) * (x - mean), 0.0)

    var = jnp.sum(jax.lax.fori_loop(0, steps, add_sq, jnp.zeros((chunk,), jnp.float32))) / (n - 1)
    rstd = jax.lax.rsqrt(var + EPS)

    def write(j, carry):
        x, valid = load(x_ref, j)
        y = (x - mean) * rstd * load(gamma_ref, j)[0] + load(beta_ref, j)[0]
        plgpu.store(y_ref.at[pl.ds(j * chunk, chunk)], y.astype(y_ref.dtype), mask=valid)
        return carry

    jax.lax.fori_loop(0, steps, write, 0)


def solve(
    x: jax.Array, gamma: jax.Array, beta: jax.Array, y: jax.ShapeDtypeStruct, m: int, n: int
) -> jax.Array:
    chunk = min(1024, pl.next_power_of_2(n))
    width = pl.cdiv(n, chunk) * chunk  # each instance sees its whole row, in whole chunks
    row_spec = pl.BlockSpec(block_shape=(None, width), index_map=lambda r: (r, 0))
    vec_spec = pl.BlockSpec(block_shape=(width,), index_map=lambda r: (0,))
    return pl.pallas_call(
        functools.partial(layernorm_kernel, n=n, chunk=chunk),
        out_shape=y,
        grid=(m,),
        in_specs=[row_spec, vec_spec, vec_spec],
        out_specs=row_spec,
    )(x, gamma, beta)
