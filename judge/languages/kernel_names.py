"""Which GPU kernel names are a Python submission's own, for the referee's kernel ledger
(sandbox/ledger.py): read from the source by the referee, never asked of the runner.

Triton names a compiled kernel after its ``@triton.jit`` function, so the submission's kernels are
the functions its source defines (a name the source does not define, from a code string or a
library, is not its own). Numba mangles a kernel under its module and function
(``solution::add_kernel``). Library kernels are never the submission's, whatever
it calls its functions (``_LIBRARY_NAME``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

# Names only a library's kernels have, never the submission's even if it defines a function so
# named: C++-mangled names (torch's at::native, cuBLAS's templates) and cuBLAS/CUTLASS/cuDNN's
# plain ones.
_LIBRARY_NAME = re.compile(
    r"^_Z|cublas|cutlass|xmma|nvjet|cudnn|^sm\d+_|^(?:ampere|volta|turing|hopper)_", re.IGNORECASE
)

# torch's copy kernel: Triton's autotuner copies the arguments a config's run may change and
# restores them (``restore_value``), with torch, on the submission's behalf.
_AUTOTUNE_COPIES = ("restore_value", "reset_to_zero")
_COPY = "copy_kernel"


def defined_functions(source: str) -> frozenset[str]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return frozenset()
    return frozenset(
        n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
    )


def triton_owner(source: str) -> Callable[[str], bool]:
    own = frozenset(n for n in defined_functions(source) if not _LIBRARY_NAME.search(n))
    copies = any(word in source for word in _AUTOTUNE_COPIES)

    def owns(name: str) -> bool:
        return name in own or (copies and _COPY in name)

    return owns


def _components(name: str, count: int) -> list[str]:
    """The first ``count`` parts of an Itanium-mangled nested name (``_ZN8solution3addE...``)."""
    out: list[str] = []
    i = 3 if name.startswith("_ZN") else len(name)
    while len(out) < count and i < len(name) and name[i].isdigit():
        j = i
        while j < len(name) and name[j].isdigit():
            j += 1
        size = int(name[i:j])
        out.append(name[j : j + size])
        i = j + size
    return out


def numba_owner(source: str) -> Callable[[str], bool]:
    """Numba mangles a kernel under its module's name: the judge loads every submission as the
    module ``solution`` (runtime.py), so its kernels are ``solution::<function>`` for a function
    its source defines (older numba-cuda put ``cudapy::`` in front). torch's are ``at::...``."""
    own = defined_functions(source)

    def owns(name: str) -> bool:
        parts = _components(name, 3)
        if parts[:1] == ["cudapy"]:
            parts = parts[1:]
        return len(parts) >= 2 and parts[0] == MODULE and parts[1] in own

    return owns


MODULE = "solution"  # the name the runner loads a Python submission under (runtime.py)
