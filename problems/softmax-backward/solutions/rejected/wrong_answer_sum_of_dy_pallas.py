# expect: wrong_answer
# Bug: the row's sum taken over dy alone, not over dy·y: a slip between the forward's sum of
# exp and the backward's sum of dy·y. Every dx of the row is off by y·(sum(dy) - sum(dy·y)).

import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu


def softmax_bwd_kernel(y_ref, dy_ref, dx_ref, *, cols, chunk):
    steps = pl.cdiv(cols, chunk)

    def load(ref, j):
        offs = j * chunk + jnp.arange(chunk)
        # past the row's end: 0, which adds nothing to the sum
        return plgpu.load(ref.at[pl.ds(j * chunk, chunk)], mask=offs < cols, other=0.0)

    def row_sum(j, acc):
        return acc + load(dy_ref, j)

    s = jnp.sum(jax.lax.fori_loop(0, steps, row_sum, jnp.zeros((chunk,), jnp.float32)))

    def write(j, carry):
        offs = j * chunk + jnp.arange(chunk)
        dx = load(y_ref, j) * (load(dy_ref, j) - s)
        plgpu.store(dx_ref.at[pl.ds(j * chunk, chunk)], dx, mask=offs < cols)
        return carry

    jax.lax.fori_loop(0, steps, write, None)


def solve(y: jax.Array, dy: jax.Array, dx: jax.ShapeDtypeStruct, rows: int, cols: int) -> jax.Array:
    chunk = min(1024, pl.next_power_of_2(cols))
    # Each instance sees its whole row, rounded up to whole chunks (None: the row axis is
    # squeezed out of the kernel's view).
    spec = pl.BlockSpec(
        block_shape=(None, pl.cdiv(cols, chunk) * chunk), index_map=lambda r: (r, 0)
    )
    return pl.pallas_call(
        functools.partial(softmax_bwd_kernel, cols=cols, chunk=chunk),
        out_shape=dx,
        grid=(rows,),
        in_specs=[spec, spec],
        out_specs=spec,
    )(y, dy)
