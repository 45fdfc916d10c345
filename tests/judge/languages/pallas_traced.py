"""Traced programs for the Pallas rule's runner half (pallas_rules.check_jaxpr), checked in a
child process: JAX starts threads when imported, and the test process forks runners and servers
(``python -m tests.judge.languages.pallas_traced`` prints one JSON object, name -> message)."""

from __future__ import annotations

import json
from typing import Any

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

from judge.languages import pallas_rules


def _add_kernel(a_ref: Any, b_ref: Any, c_ref: Any) -> None:
    c_ref[...] = a_ref[...] + b_ref[...]


def _kernel(a: Any, b: Any) -> Any:
    out = jax.ShapeDtypeStruct(a.shape, a.dtype)
    return pl.pallas_call(_add_kernel, out_shape=out, interpret=True)(a, b)


def _callback(a: Any, b: Any) -> Any:
    shape = jax.ShapeDtypeStruct((8,), jnp.float32)
    return _kernel(jax.pure_callback(lambda: jnp.ones((8,), jnp.float32), shape), b)


# name -> (solve's body as a function of two float32[8] inputs, the mode the judge wants)
CASES: dict[str, tuple[Any, bool]] = {
    "operator": (lambda a, b: a + b, True),
    "method": (lambda a, b: a.sum() + 0 * b, True),  # the source rule cannot see a method
    "kernel output combined": (lambda a, b: _kernel(a, b) * 2, True),
    "nested jit": (lambda a, b: jax.jit(lambda x: x[::-1])(_kernel(a, b)), True),
    "slice": (lambda a, b: _kernel(a, b)[:4], True),
    "cast": (lambda a, b: _kernel(a.astype(jnp.float16), b.astype(jnp.float16)), True),
    "callback on a constant": (_callback, True),
    "kernel": (_kernel, True),
    "kernel, other mode": (_kernel, False),
    "reshapes": (lambda a, b: _kernel(a.reshape(2, 4), b.reshape(2, 4)).reshape(8), True),
    "constants": (lambda a, b: _kernel(a, jnp.zeros_like(b) + 1.0), True),
    "unit axes in a nested jit": (lambda a, b: jax.jit(_kernel)(a[None], b[None])[0], True),
    "input returned": (lambda a, b: a, True),
}


def main() -> None:
    x = jnp.ones((8,), jnp.float32)
    out = {}
    for name, (fn, interpret) in CASES.items():
        out[name] = pallas_rules.check_jaxpr(jax.make_jaxpr(fn)(x, x), interpret=interpret)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
