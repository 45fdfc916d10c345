"""Pallas flash attention that forgets to rescale its accumulator when the running max grows:
the sum of exponentials is rescaled, the weighted values are not, so every query whose max
changes after the first key block gets a wrong mix of values."""

import functools
import math

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

BQ, BK = 32, 32  # queries per instance, keys per step


def attention_kernel(q_ref, k_ref, v_ref, o_ref, *, s, d, dp):
    rows = pl.program_id(1) * BQ + jnp.arange(BQ)
    dims = jnp.arange(dp)
    q = plgpu.load(q_ref, mask=(rows[:, None] < s) & (dims[None, :] < d), other=0.0)
    scale = 1.0 / math.sqrt(d)

    def step(j, carry):
        m, total, acc = carry
        keys = j * BK + jnp.arange(BK)
        kv_mask = (keys[:, None] < s) & (dims[None, :] < d)
        kb = plgpu.load(k_ref.at[pl.ds(j * BK, BK), :], mask=kv_mask, other=0.0)
        vb = plgpu.load(v_ref.at[pl.ds(j * BK, BK), :], mask=kv_mask, other=0.0)
        scores = jnp.dot(q, kb.T, preferred_element_type=jnp.float32) * scale
        scores = jnp.where(keys[None, :] < s, scores, -jnp.inf)  # keys past s count for nothing
        m_new = jnp.maximum(m, jnp.max(scores, axis=1))
        p = jnp.exp(scores - m_new[:, None])
        alpha = jnp.exp(m - m_new)
        total = total * alpha + jnp.sum(p, axis=1)
        acc = acc + jnp.dot(p.astype(vb.dtype), vb, preferred_element_type=jnp.float32)
        return m_new, total, acc

    carry = (
        jnp.full((BQ,), -jnp.inf, jnp.float32),
        jnp.zeros((BQ,), jnp.float32),
        jnp.zeros((BQ, dp), jnp.float32),
    )
    _, total, acc = jax.lax.fori_loop(0, pl.cdiv(s, BK), step, carry)
    out = (acc / total[:, None]).astype(o_ref.dtype)
    plgpu.store(o_ref, out, mask=(rows[:, None] < s) & (dims[None, :] < d))


def solve(q, k, v, o: jax.ShapeDtypeStruct, b: int, h: int, s: int, d: int) -> jax.Array:
    dp = pl.next_power_of_2(d)
    sp = pl.cdiv(s, BK) * BK  # every instance sees all keys, in whole blocks
    q_spec = pl.BlockSpec(block_shape=(None, BQ, dp), index_map=lambda bh, i: (bh, i, 0))
    kv_spec = pl.BlockSpec(block_shape=(None, sp, dp), index_map=lambda bh, i: (bh, 0, 0))
    out = pl.pallas_call(
        functools.partial(attention_kernel, s=s, d=d, dp=dp),
        out_shape=jax.ShapeDtypeStruct((b * h, s, d), o.dtype),
        grid=(b * h, pl.cdiv(s, BQ)),
        in_specs=[q_spec, kv_spec, kv_spec],
        out_specs=q_spec,
    )(q.reshape(b * h, s, d), k.reshape(b * h, s, d), v.reshape(b * h, s, d))
    return out.reshape(b, h, s, d)
