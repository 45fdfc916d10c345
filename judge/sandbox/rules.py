"""Problem rules enforced inside the runner: solve computes with the learner's own kernels.

Inside ``solve`` only allocation and views are allowed through torch (``torch.empty``,
``zeros``, ``reshape``...); any other ATen operator (``add``, ``mm``, ``softmax``, ``copy_``...)
is refused with ``rejected``. Triton's own machinery (autotuning, the interpreter's host
copies) is let through, and so are operators on fake tensors only (``FakeTensor``: shapes and
dtypes, no data), which a tile DSL's compiler traces a kernel with (Helion's type propagation
runs the kernel's ``torch.exp(row)`` on them): they compute nothing, and the kernel they compile
to is the learner's. This runs in the submission's process, so a determined submission
could remove it: on a GPU the referee's kernel ledger (ledger.py) checks the same rule from
outside the process; on the CPU device this rule and the static policy stand alone. CUDA
submissions are checked at link level instead (compilers.py).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

ALLOWED_OPS = frozenset(
    {
        # allocation and initialisation of scratch memory
        "empty",
        "empty_like",
        "empty_strided",
        "new_empty",
        "new_empty_strided",
        "zeros",
        "zeros_like",
        "new_zeros",
        "zero_",
        "fill_",
        "ones",
        "ones_like",
        "new_ones",
        "full",
        "full_like",
        "new_full",
        # views: no data is computed
        "view",
        "_unsafe_view",
        "as_strided",
        "alias",
        "detach",
        "select",
        "slice",
        "expand",
        "unsqueeze",
        "squeeze",
        "permute",
        "transpose",
        "t",
        "reshape",
        "flatten",
        "unflatten",
        "view_as",
        "split",
        "chunk",
        "narrow",
        "unbind",
        "lift_fresh",
        "_reshape_alias",
        "is_contiguous",
        "contiguous",
        "unfold",
        "diagonal",
        "expand_as",
        "movedim",
        # dtype arithmetic: no tensor at all (Helion's lowering of torch.addmm asks it)
        "promote_types",
        "result_type",
    }
)

_TRITON_DIR = None


def _triton_dir() -> str:
    global _TRITON_DIR
    if _TRITON_DIR is None:
        import triton

        _TRITON_DIR = os.path.dirname(triton.__file__) + os.sep
    return _TRITON_DIR


class LibraryComputeError(RuntimeError):
    pass


def _only_fake(args: Any, kwargs: Any) -> bool:
    """Whether every tensor among the arguments is a fake one (and there is at least one)."""
    from torch import Tensor
    from torch._subclasses.fake_tensor import FakeTensor
    from torch.utils._pytree import tree_leaves

    tensors = [x for x in tree_leaves((args, kwargs)) if isinstance(x, Tensor)]
    return bool(tensors) and all(isinstance(x, FakeTensor) for x in tensors)


def _called_from_triton() -> bool:
    f: Any = sys._getframe(2)
    tdir = _triton_dir()
    while f is not None:
        if f.f_code.co_filename.startswith(tdir):
            return True
        f = f.f_back
    return False


@contextmanager
def no_library_compute() -> Iterator[None]:
    from torch.utils._python_dispatch import TorchDispatchMode

    class _Mode(TorchDispatchMode):
        def __torch_dispatch__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            name = func.overloadpacket.__name__
            if name in ALLOWED_OPS or _only_fake(args, kwargs) or _called_from_triton():
                return func(*args, **(kwargs or {}))
            raise LibraryComputeError(
                f"solve called torch's {name!r}: this problem must be computed by your own kernels "
                "(allocating scratch memory with torch.empty/zeros is allowed)"
            )

    with _Mode():
        yield
