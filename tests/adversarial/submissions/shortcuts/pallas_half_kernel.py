# Threat class 8 (shortcuts), JAX Pallas: a kernel does half the work (per-block partial sums),
# XLA does the rest through a method on the kernel's output (`partials.sum()`), which no source
# rule can tell from a Python method. The traced program shows the reduce_sum on data a kernel
# produced, outside any kernel: rejected.
# expect: rejected
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

BLOCK = 1024


def partial_kernel(x_ref, p_ref, *, n):
    offs = pl.program_id(0) * BLOCK + jnp.arange(BLOCK)
    p_ref[...] = jnp.sum(plgpu.load(x_ref, mask=offs < n, other=0.0), keepdims=True)


def solve(x: jax.Array, out: jax.ShapeDtypeStruct, n: int) -> jax.Array:
    blocks = pl.cdiv(n, BLOCK)
    partials = pl.pallas_call(
        functools.partial(partial_kernel, n=n),
        out_shape=jax.ShapeDtypeStruct((blocks,), jnp.float32),
        grid=(blocks,),
        in_specs=[pl.BlockSpec(block_shape=(BLOCK,), index_map=lambda i: (i,))],
        out_specs=pl.BlockSpec(block_shape=(1,), index_map=lambda i: (i,)),
    )(x)
    return partials.sum(keepdims=True)
