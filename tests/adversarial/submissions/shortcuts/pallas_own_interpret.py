# Threat class 8 (shortcuts), JAX Pallas: reach Pallas' own pallas_call (a private module, past
# the judge's wrapper) to run the kernel in interpret mode on a GPU, where its body becomes
# ordinary XLA operations (a jnp.dot there would be cuBLAS). Graded with the static policy off
# (it refuses the private import). On the CPU interpret mode is the judge's own choice and the
# kernel is honest: accepted. On a GPU the traced program's pallas_call has interpret=True
# where the judge compiles: rejected.
# expect: accepted on the CPU, rejected on a GPU
import jax
from jax._src.pallas.pallas_call import pallas_call as raw_pallas_call


def add_kernel(a_ref, b_ref, c_ref):
    c_ref[...] = a_ref[...] + b_ref[...]


def solve(a: jax.Array, b: jax.Array, c: jax.ShapeDtypeStruct, n: int) -> jax.Array:
    return raw_pallas_call(add_kernel, out_shape=c, interpret=True)(a, b)
