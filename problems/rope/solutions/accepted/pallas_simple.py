"""Pallas RoPE: one kernel instance per token (batch, position), rotating all h heads of q and k
at once. Each head's two halves are loaded as separate (heads x pairs) tiles, both offset views
of the same block: pairs i and i + d/2, masked past h heads and d/2 pairs. The rotation is done
in float32 with the position's cos and sin and rounded to bf16 once at the store. q and k are
in place: solve returns their rotated values."""

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu


def rope_kernel(q_ref, k_ref, cos_ref, sin_ref, q_out_ref, k_out_ref, *, h, half, hp, pp):
    heads = jnp.arange(hp)
    pairs = jnp.arange(pp)
    mask = (heads[:, None] < h) & (pairs[None, :] < half)
    c = plgpu.load(cos_ref.at[pl.ds(0, pp)], mask=pairs < half, other=0.0)[None, :]
    s = plgpu.load(sin_ref.at[pl.ds(0, pp)], mask=pairs < half, other=0.0)[None, :]
    for x_ref, out_ref in ((q_ref, q_out_ref), (k_ref, k_out_ref)):
        first = x_ref.at[pl.ds(0, hp), pl.ds(0, pp)]
        second = x_ref.at[pl.ds(0, hp), pl.ds(half, pp)]
        x1 = plgpu.load(first, mask=mask, other=0.0).astype(jnp.float32)
        x2 = plgpu.load(second, mask=mask, other=0.0).astype(jnp.float32)
        y1 = (x1 * c - x2 * s).astype(out_ref.dtype)
        y2 = (x2 * c + x1 * s).astype(out_ref.dtype)
        plgpu.store(out_ref.at[pl.ds(0, hp), pl.ds(0, pp)], y1, mask=mask)
        plgpu.store(out_ref.at[pl.ds(0, hp), pl.ds(half, pp)], y2, mask=mask)


def solve(
    q: jax.Array, k: jax.Array, cos: jax.Array, sin: jax.Array, b: int, s: int, h: int, d: int
):
    half = d // 2
    hp, pp = pl.next_power_of_2(h), pl.next_power_of_2(half)
    # A token's block: all its heads (rounded up to hp) and, along d, room for the second
    # half's tile of pp pairs starting at d/2 (None: batch and position are squeezed out).
    x_spec = pl.BlockSpec(
        block_shape=(None, None, hp, half + pp), index_map=lambda i, p: (i, p, 0, 0)
    )
    table_spec = pl.BlockSpec(block_shape=(None, pp), index_map=lambda i, p: (p, 0))
    return pl.pallas_call(
        functools.partial(rope_kernel, h=h, half=half, hp=hp, pp=pp),
        out_shape=(jax.ShapeDtypeStruct(q.shape, q.dtype), jax.ShapeDtypeStruct(k.shape, k.dtype)),
        grid=(b, s),
        in_specs=[x_spec, x_spec, table_spec, table_spec],
        out_specs=(x_spec, x_spec),
    )(q, k, cos, sin)
