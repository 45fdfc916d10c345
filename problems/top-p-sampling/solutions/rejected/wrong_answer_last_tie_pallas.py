# expect: wrong_answer
# Bug: equal probabilities counted from the highest index down (the nth of the chosen weight
# from the row's end), where the order puts the lower index first. Right whenever the chosen
# probability is unique in its row; "flat" rows are all ties.
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

ONE = 16777216  # 2^24


def top_p_kernel(probs_ref, top_p_ref, u_ref, token_ref, *, vocab, width):
    cols = jnp.arange(width)
    w = (plgpu.load(probs_ref.at[pl.ds(0, width)], mask=cols < vocab, other=0.0) * ONE).astype(
        jnp.int32
    )

    def mass_from(v):
        return jnp.sum(jnp.where(w >= v, w, 0))

    def last_level(target):
        def step(_, bounds):
            lo, hi = bounds
            mid = (lo + hi) // 2
            ok = mass_from(mid) >= target
            return jnp.where(ok, mid, lo), jnp.where(ok, hi, mid)

        # 25 halvings take [1, 2^24 + 1) down to one weight
        lo, _ = jax.lax.fori_loop(0, 25, step, (jnp.int32(1), jnp.int32(ONE + 1)))
        return lo

    p = plgpu.load(top_p_ref.at[pl.ds(0, 1)])
    target = jnp.ceil(p * ONE).astype(jnp.int32)[0]
    level = last_level(target)
    above = mass_from(level + 1)
    mass = above + (target - above + level - 1) // level * level
    t = plgpu.load(u_ref.at[pl.ds(0, 1)])[0] * (mass.astype(jnp.float32) * (1.0 / ONE))
    goal = jnp.minimum(jnp.floor(t * ONE).astype(jnp.int32) + 1, mass)
    pick = last_level(goal)
    nth = (goal - mass_from(pick + 1) + pick - 1) // pick
    hit = w == pick
    nth = jnp.sum(jnp.where(hit, 1, 0)) + 1 - nth  # BUG: equal weights counted from the end

    def narrow(_, bounds):
        # the smallest column c with nth hits in [0, c]
        lo, hi = bounds
        mid = (lo + hi) // 2
        ok = jnp.sum(jnp.where(hit & (cols <= mid), 1, 0)) >= nth
        return jnp.where(ok, lo, mid + 1), jnp.where(ok, mid, hi)

    steps = max(1, (width - 1).bit_length() + 1)
    found, _ = jax.lax.fori_loop(0, steps, narrow, (jnp.int32(0), jnp.int32(width - 1)))
    plgpu.store(token_ref.at[pl.ds(0, 1)], jnp.full((1,), found, jnp.int32))


def solve(
    probs: jax.Array,
    top_p: jax.Array,
    u: jax.Array,
    token: jax.ShapeDtypeStruct,
    batch: int,
    vocab: int,
) -> jax.Array:
    width = pl.next_power_of_2(vocab)
    one = pl.BlockSpec(block_shape=(1,), index_map=lambda r: (r,))
    return pl.pallas_call(
        functools.partial(top_p_kernel, vocab=vocab, width=width),
        out_shape=token,
        grid=(batch,),
        in_specs=[pl.BlockSpec(block_shape=(None, width), index_map=lambda r: (r, 0)), one, one],
        out_specs=one,
    )(probs, top_p, u)
