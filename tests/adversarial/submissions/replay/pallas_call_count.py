# Threat class 1 (replay) and 6 (detection), JAX Pallas: count the calls of solve and, after the
# first one of a size, skip the kernel and return GARBAGE (zeros). The judge runs solve under
# jax.jit with the sizes static, so solve's Python runs once per size (when it is traced) and
# every call runs the compiled kernel: the counter never changes what runs. `accepted` proves it.
# expect: accepted (truthful: the skip never takes effect)
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

BLOCK = 1024
seen: dict[int, int] = {}


def add_kernel(a_ref, b_ref, c_ref, *, n):
    offs = pl.program_id(0) * BLOCK + jnp.arange(BLOCK)
    mask = offs < n
    a = plgpu.load(a_ref, mask=mask, other=0.0)
    b = plgpu.load(b_ref, mask=mask, other=0.0)
    plgpu.store(c_ref, a + b, mask=mask)


def solve(a: jax.Array, b: jax.Array, c: jax.ShapeDtypeStruct, n: int) -> jax.Array:
    seen[n] = seen.get(n, 0) + 1
    if seen[n] > 1:
        return jnp.zeros(c.shape, c.dtype)
    spec = pl.BlockSpec(block_shape=(BLOCK,), index_map=lambda i: (i,))
    return pl.pallas_call(
        functools.partial(add_kernel, n=n),
        out_shape=c,
        grid=(pl.cdiv(n, BLOCK),),
        in_specs=[spec, spec],
        out_specs=spec,
    )(a, b)
