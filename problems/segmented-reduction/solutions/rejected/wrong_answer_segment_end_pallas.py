# expect: wrong_answer
# Bug: each segment read up to and including offsets[s + 1] ("<=" at the mask), so every
# non-empty segment that is not the last adds the first element of the next one.

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

CHUNK = 256  # elements per step


def segment_sum_kernel(x_ref, offsets_ref, out_ref):
    s = pl.program_id(0)
    start = offsets_ref[s]
    end = offsets_ref[s + 1]

    def step(j, acc):
        pos = start + j * CHUNK + jnp.arange(CHUNK)
        return acc + plgpu.load(
            x_ref.at[pl.ds(start + j * CHUNK, CHUNK)], mask=pos <= end, other=0.0
        )

    acc = jax.lax.fori_loop(0, pl.cdiv(end - start, CHUNK), step, jnp.zeros((CHUNK,), jnp.float32))
    out_ref[...] = jnp.full((1,), jnp.sum(acc))


def solve(
    x: jax.Array, offsets: jax.Array, out: jax.ShapeDtypeStruct, n: int, segments: int
) -> jax.Array:
    # no in_specs: every instance sees all of x and offsets; it writes its segment's out
    return pl.pallas_call(
        segment_sum_kernel,
        out_shape=out,
        grid=(segments,),
        out_specs=pl.BlockSpec(block_shape=(1,), index_map=lambda s: (s,)),
    )(x, offsets)
