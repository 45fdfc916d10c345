# Threat class 8 (shortcuts), JAX Pallas: let XLA do the work with a plain operator on the input
# arrays instead of a Pallas kernel. No jnp function is named, so the source rule has nothing to
# see; the runner's check of the traced program refuses the `add` outside any pallas_call.
# expect: rejected
import jax


def solve(a: jax.Array, b: jax.Array, c: jax.ShapeDtypeStruct, n: int) -> jax.Array:
    return a + b
