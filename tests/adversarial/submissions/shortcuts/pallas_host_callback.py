# Threat class 8 (shortcuts), JAX Pallas: compute on the host with NumPy inside a callback that
# XLA calls on every run (jax.pure_callback), the kernel only copying the callback's result.
# Graded with the static policy off (the source rule refuses jax.pure_callback): the traced
# program's check refuses any host callback outside a kernel.
# expect: rejected
import jax
import numpy as np
from jax.experimental import pallas as pl


def copy_kernel(x_ref, c_ref):
    c_ref[...] = x_ref[...]


def solve(a: jax.Array, b: jax.Array, c: jax.ShapeDtypeStruct, n: int) -> jax.Array:
    summed = jax.pure_callback(lambda x, y: np.add(x, y), c, a, b)
    return pl.pallas_call(copy_kernel, out_shape=c)(summed)
