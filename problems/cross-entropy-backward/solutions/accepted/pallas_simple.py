"""Pallas cross-entropy forward and backward in two kernels. The first runs one instance per
row and makes three passes over it in chunks: the row maximum m; the sum of e^(x - m) and the
logit at the label; then dlogits = (e^(x - m) / sum - [j = label]) / b. Its loss
m + log(sum) - x[label] goes to a float32 array of b row losses, which the second kernel (one
instance) adds up in chunks and divides by b."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu


def rows_kernel(x_ref, label_ref, dx_ref, loss_ref, *, b, v, chunk):
    steps = pl.cdiv(v, chunk)
    label = label_ref[0]

    def load(j):
        cols = j * chunk + jnp.arange(chunk)
        # past the row's end: -inf, which neither wins the max nor adds to the sum
        return cols, plgpu.load(x_ref.at[pl.ds(j * chunk, chunk)], mask=cols < v, other=-jnp.inf)

    def row_max(j, m):
        return jnp.maximum(m, load(j)[1])

    m = jnp.max(jax.lax.fori_loop(0, steps, row_max, jnp.full((chunk,), -jnp.inf, jnp.float32)))

    def row_sum(j, carry):
        total, picked = carry
        cols, x = load(j)
        return total + jnp.exp(x - m), picked + jnp.where(cols == label, x, 0.0)

    zeros = jnp.zeros((chunk,), jnp.float32)
    total, picked = jax.lax.fori_loop(0, steps, row_sum, (zeros, zeros))
    s = jnp.sum(total)

    def write(j, carry):
        cols, x = load(j)
        grad = (jnp.exp(x - m) / s - jnp.where(cols == label, 1.0, 0.0)) / b
        plgpu.store(dx_ref.at[pl.ds(j * chunk, chunk)], grad, mask=cols < v)
        return carry

    jax.lax.fori_loop(0, steps, write, None)
    loss_ref[...] = jnp.full((1,), m + jnp.log(s) - jnp.sum(picked))


def mean_kernel(r_ref, loss_ref, *, b, chunk):
    def add(j, acc):
        rows = j * chunk + jnp.arange(chunk)
        return acc + plgpu.load(r_ref.at[pl.ds(j * chunk, chunk)], mask=rows < b, other=0.0)

    acc = jax.lax.fori_loop(0, pl.cdiv(b, chunk), add, jnp.zeros((chunk,), jnp.float32))
    loss_ref[...] = jnp.full((1,), jnp.sum(acc) / b)


def solve(
    logits: jax.Array,
    labels: jax.Array,
    loss: jax.ShapeDtypeStruct,
    dlogits: jax.ShapeDtypeStruct,
    b: int,
    v: int,
):
    chunk = min(1024, pl.next_power_of_2(v))
    one = pl.BlockSpec(block_shape=(1,), index_map=lambda r: (r,))
    # each instance sees its whole row, rounded up to whole chunks (the row axis squeezed)
    row = pl.BlockSpec(block_shape=(None, pl.cdiv(v, chunk) * chunk), index_map=lambda r: (r, 0))
    grad, rows = pl.pallas_call(
        functools.partial(rows_kernel, b=b, v=v, chunk=chunk),
        out_shape=(dlogits, jax.ShapeDtypeStruct((b,), jnp.float32)),
        grid=(b,),
        in_specs=[row, one],
        out_specs=(row, one),
    )(logits, labels)
    rchunk = min(1024, pl.next_power_of_2(b))
    mean = pl.pallas_call(
        functools.partial(mean_kernel, b=b, chunk=rchunk),
        out_shape=loss,
        grid=(1,),
        in_specs=[pl.BlockSpec(block_shape=(pl.cdiv(b, rchunk) * rchunk,), index_map=lambda i: (0,))],
        out_specs=pl.BlockSpec(block_shape=(1,), index_map=lambda i: (0,)),
    )(rows)
    return mean, grad
