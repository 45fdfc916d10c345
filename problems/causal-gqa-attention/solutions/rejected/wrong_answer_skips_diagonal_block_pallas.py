"""Pallas causal grouped-query attention whose key walk stops one block early: it runs over the
key blocks before the query block (program_id(1) of them) and skips the block on the diagonal.
Every query loses its own key and the keys just before it; the first query block has no key at
all and divides 0 by 0."""

import functools
import math

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

BQ, BK = 32, 32  # queries per instance, keys per step


def attention_kernel(q_ref, k_ref, v_ref, o_ref, *, s, d):
    first = pl.program_id(1) * BQ
    rows = first + jnp.arange(BQ)
    row_ok = rows[:, None] < s
    q = plgpu.load(q_ref, mask=jnp.broadcast_to(row_ok, (BQ, d)), other=0.0)
    scale = 1.0 / math.sqrt(d)

    def step(j, carry):
        m, total, acc = carry
        keys = j * BK + jnp.arange(BK)
        kv_mask = jnp.broadcast_to(keys[:, None] < s, (BK, d))
        kb = plgpu.load(k_ref.at[pl.ds(j * BK, BK), :], mask=kv_mask, other=0.0)
        vb = plgpu.load(v_ref.at[pl.ds(j * BK, BK), :], mask=kv_mask, other=0.0)
        scores = jnp.dot(q, kb.T, preferred_element_type=jnp.float32) * scale
        # the causal mask (key j <= query i), which also drops the keys past s
        scores = jnp.where(keys[None, :] <= rows[:, None], scores, -jnp.inf)
        m_new = jnp.maximum(m, jnp.max(scores, axis=1))
        p = jnp.exp(scores - m_new[:, None])
        alpha = jnp.exp(m - m_new)  # what the old sum and accumulator are worth now
        total = total * alpha + jnp.sum(p, axis=1)
        acc = acc * alpha[:, None] + jnp.dot(
            p.astype(vb.dtype), vb, preferred_element_type=jnp.float32
        )
        return m_new, total, acc

    carry = (
        jnp.full((BQ,), -jnp.inf, jnp.float32),
        jnp.zeros((BQ,), jnp.float32),
        jnp.zeros((BQ, d), jnp.float32),
    )
    # key blocks before this query block
    _, total, acc = jax.lax.fori_loop(0, pl.program_id(1), step, carry)
    out = (acc / total[:, None]).astype(o_ref.dtype)
    plgpu.store(o_ref, out, mask=jnp.broadcast_to(row_ok, (BQ, d)))


def solve(
    q: jax.Array,
    k: jax.Array,
    v: jax.Array,
    o: jax.ShapeDtypeStruct,
    b: int,
    hq: int,
    hkv: int,
    s: int,
    d: int,
) -> jax.Array:
    group = hq // hkv  # query heads per KV head
    sp = pl.cdiv(s, BK) * BK  # every instance sees its KV head's keys, in whole blocks
    # the grid's first axis is batch * hq + query head; d is 32, 64 or 128
    q_spec = pl.BlockSpec(
        block_shape=(None, None, BQ, d), index_map=lambda bh, i: (bh // hq, bh % hq, i, 0)
    )
    kv_spec = pl.BlockSpec(
        block_shape=(None, None, sp, d),
        index_map=lambda bh, i: (bh // hq, (bh % hq) // group, 0, 0),
    )
    return pl.pallas_call(
        functools.partial(attention_kernel, s=s, d=d),
        out_shape=o,
        grid=(b * hq, pl.cdiv(s, BQ)),
        in_specs=[q_spec, kv_spec, kv_spec],
        out_specs=q_spec,
    )(q, k, v)
