"""An unmasked store into a ragged edge block of a Pallas kernel: passes on the CPU, not on a GPU.

Pallas' interpreter (the CPU worker's mode) pads a block that runs past the end of its array, so
a kernel that stores its last block whole passes there. Triton's lowering (a GPU worker's) does
not mask edge blocks: the same store writes past the end of the output, into memory JAX owns
and the judge's guard bands do not cover (pallas.py). The kernel's tail mask is the learner's
to write (``plgpu.store(ref, value, mask=...)``).

``unmasked_ragged_stores(closed)`` reads solve's jaxpr: for every ``pallas_call``, each output
whose block shape does not divide its array's shape, and whether the kernel stores to a ref of
that block's type (at any depth: refs pass unchanged into loops and branches) without a mask
(``ref[...] = x``, ``plgpu.store`` without ``mask=``, ``+=``). The CPU worker shows each as a
warning on the result: it is checked there, but only a GPU would show its effect.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

_UNMASKED = frozenset({"swap", "addupdate"})  # ref[...] = x, ref[...] += x


def unmasked_ragged_stores(closed: Any) -> list[str]:
    """One line per output of a ``pallas_call`` in ``closed`` (solve's ClosedJaxpr) that is
    stored unmasked although its blocks do not divide it."""
    found: list[str] = []
    for eqn in _eqns(closed.jaxpr):
        if eqn.primitive.name != "pallas_call":
            continue
        gm = eqn.params.get("grid_mapping")
        kernel = eqn.params.get("jaxpr")
        if gm is None or kernel is None:
            continue
        first = gm.num_index_operands + gm.num_inputs
        outputs = gm.block_mappings[gm.num_inputs : gm.num_inputs + gm.num_outputs]
        refs = kernel.invars[first : first + gm.num_outputs]
        for i, (bm, ref) in enumerate(zip(outputs, refs, strict=False)):
            shape = tuple(bm.array_aval.shape)
            blocks = [getattr(b, "block_size", b) for b in bm.block_shape]
            ragged = [
                (n, b) for n, b in zip(shape, blocks, strict=False) if isinstance(b, int) and n % b
            ]
            if ragged and _stored_unmasked(kernel, ref.aval):
                n, b = ragged[0]
                found.append(
                    f"output {i + 1} of a pallas_call ({'x'.join(map(str, shape))}) is cut in "
                    f"blocks of {b} that do not divide its {n}, and the kernel stores a block to "
                    "it without a mask: on a GPU (Triton's lowering does not mask edge blocks) "
                    "the last block writes past the end of the output; the CPU's interpreter pads "
                    "it, so this passes here. Mask the store: plgpu.store(ref, value, mask=...)"
                )
    return found


def _stored_unmasked(kernel: Any, aval: Any) -> bool:
    from jax import tree_util

    for eqn in _eqns(kernel):
        name = eqn.primitive.name
        if not eqn.invars or getattr(eqn.invars[0], "aval", None) != aval:
            continue
        if name in _UNMASKED:
            return True
        if name == "masked_swap":
            tree = eqn.params.get("args_tree")
            args = tree_util.tree_unflatten(tree, eqn.invars) if tree is not None else None
            if isinstance(args, tuple) and len(args) == 4 and args[3] is None:
                return True
    return False


def _eqns(jaxpr: Any) -> Iterator[Any]:
    """Every equation of ``jaxpr`` and of the jaxprs inside its equations (loops, branches,
    nested calls), but not inside a ``pallas_call``'s kernel (the caller reads that)."""
    for eqn in jaxpr.eqns:
        yield eqn
        if eqn.primitive.name == "pallas_call":
            continue
        for value in eqn.params.values():
            for sub in value if isinstance(value, list | tuple) else (value,):
                inner = getattr(sub, "jaxpr", sub)
                if hasattr(inner, "eqns"):
                    yield from _eqns(inner)
