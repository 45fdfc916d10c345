# expect: wrong_answer
# Bug: "<=" where "<" belongs: a later centroid at the same distance replaces the earlier one,
# so ties go to the highest index; the problem asks for the lowest.

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

BN = 32  # points per instance


def assign_kernel(x_ref, c_ref, labels_ref, *, n, k, d, dp):
    rows = pl.program_id(0) * BN + jnp.arange(BN)
    dims = jnp.arange(dp)
    x = plgpu.load(x_ref, mask=(rows[:, None] < n) & (dims[None, :] < d), other=0.0)

    def step(j, carry):
        best, where = carry
        c = plgpu.load(c_ref.at[pl.ds(j, 1), :], mask=dims[None, :] < d, other=0.0)
        diff = x - c
        dist = jnp.sum(diff * diff, axis=1)
        nearer = dist <= best
        return jnp.where(nearer, dist, best), jnp.where(nearer, j, where)

    start = (jnp.full((BN,), jnp.inf, jnp.float32), jnp.zeros((BN,), jnp.int32))
    _, where = jax.lax.fori_loop(0, k, step, start)
    plgpu.store(labels_ref, where, mask=rows < n)


def solve(
    points: jax.Array, centroids: jax.Array, labels: jax.ShapeDtypeStruct, n: int, k: int, d: int
) -> jax.Array:
    dp = pl.next_power_of_2(d)
    kp = pl.next_power_of_2(k)
    return pl.pallas_call(
        functools.partial(assign_kernel, n=n, k=k, d=d, dp=dp),
        out_shape=labels,
        grid=(pl.cdiv(n, BN),),
        in_specs=[
            pl.BlockSpec(block_shape=(BN, dp), index_map=lambda i: (i, 0)),  # this block's points
            pl.BlockSpec(block_shape=(kp, dp), index_map=lambda i: (0, 0)),  # every centroid
        ],
        out_specs=pl.BlockSpec(block_shape=(BN,), index_map=lambda i: (i,)),
    )(points, centroids)
