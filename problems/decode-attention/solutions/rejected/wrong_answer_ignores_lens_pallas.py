"""Pallas decode attention that ignores lens: every instance walks the whole cache, L positions,
masked only at L. Positions at or past lens[i] hold stale keys and values, which then count in
the softmax: right only for the sequences whose length is L."""

import functools
import math

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

BN = 64  # keys per step


def decode_kernel(q_ref, k_ref, v_ref, lens_ref, o_ref, *, d, n):
    q = q_ref[...].astype(jnp.float32)
    scale = 1.0 / math.sqrt(d)

    def step(j, carry):
        m, total, acc = carry
        pos = j * BN + jnp.arange(BN)
        ok = pos < n
        mask = jnp.broadcast_to(ok[:, None], (BN, d))
        kb = plgpu.load(k_ref.at[pl.ds(j * BN, BN), :], mask=mask, other=0.0)
        vb = plgpu.load(v_ref.at[pl.ds(j * BN, BN), :], mask=mask, other=0.0)
        scores = jnp.sum(kb.astype(jnp.float32) * q[None, :], axis=1) * scale
        scores = jnp.where(ok, scores, -jnp.inf)
        m_new = jnp.maximum(m, jnp.max(scores))
        p = jnp.exp(scores - m_new)
        alpha = jnp.exp(m - m_new)  # what the old sum and accumulator are worth now
        total = total * alpha + jnp.sum(p)
        acc = acc * alpha + jnp.sum(p[:, None] * vb.astype(jnp.float32), axis=0)
        return m_new, total, acc

    carry = (jnp.float32(-jnp.inf), jnp.float32(0.0), jnp.zeros((d,), jnp.float32))
    _, total, acc = jax.lax.fori_loop(0, pl.cdiv(n, BN), step, carry)
    o_ref[...] = (acc / total).astype(o_ref.dtype)


def solve(
    q: jax.Array,
    k: jax.Array,
    v: jax.Array,
    lens: jax.Array,
    o: jax.ShapeDtypeStruct,
    b: int,
    hq: int,
    hkv: int,
    L: int,
    d: int,
) -> jax.Array:
    group = hq // hkv  # query heads per KV head
    # every instance sees its KV head's whole cache, in whole blocks (d is 64 or 128)
    kv_spec = pl.BlockSpec(
        block_shape=(None, None, pl.cdiv(L, BN) * BN, d),
        index_map=lambda i, h: (i, h // group, 0, 0),
    )
    head = pl.BlockSpec(block_shape=(None, None, d), index_map=lambda i, h: (i, h, 0))
    return pl.pallas_call(
        functools.partial(decode_kernel, d=d, n=L),
        out_shape=o,
        grid=(b, hq),
        in_specs=[
            head,
            kv_spec,
            kv_spec,
            pl.BlockSpec(block_shape=(1,), index_map=lambda i, h: (i,)),
        ],
        out_specs=head,
    )(q, k, v, lens)
