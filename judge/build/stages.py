"""Triton's NVIDIA compile, cut short where the rest cannot help.

Triton lowers a kernel through ``ttir``, ``ttgir``, ``llir``, ``ptx`` and ``cubin`` (ptxas), and
checks the GPU's limits only when it first loads the result. The shared memory a kernel needs is
known once ``llir`` is made (``metadata["shared"]``); the last stage, ptxas, is the slowest and on
some kernels far slower than the rest. On a lent H200 (2026-11-29, Triton 3.6) one specialisation
of the fused-softmax tutorial at 65536 columns, which needs 786464 bytes of shared memory and so
can never launch, kept ptxas busy past the compile limit: the learner waited 120 s for
``time_limit_exceeded`` where the GPU's answer is ``runtime_error`` naming shared memory.

``install(limit)`` wraps the ``llir`` stage of every compile in this process:

* a kernel needing more shared memory than ``limit`` bytes per block raises Triton's own
  ``OutOfResources`` right there, as its launch would (an autotuner skips that config, as it skips
  one that fails to launch), before ``ptx`` and ptxas;
* inside ``lowered_only()`` (this thread) the compile stops after ``llir`` with ``Lowered``, which
  carries the metadata: the CPU interpreter's check against an H100 needs no more (interpreter.py).

Only speed and the verdict's wording depend on it: a kernel that fits is compiled to the end as
before, and the launch checks Triton makes when it loads a kernel still run.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any

_local = threading.local()
_state: dict[str, Any] = {"limit": None, "installed": False}


class Lowered(Exception):  # not an error: the compile stopped where it was asked to
    """Raised after the ``llir`` stage inside ``lowered_only``; ``metadata`` is Triton's."""

    def __init__(self, metadata: dict[str, Any]) -> None:
        super().__init__("stopped after llir")
        self.metadata = metadata


@contextlib.contextmanager
def lowered_only() -> Iterator[None]:
    """Compiles in this thread stop after ``llir`` (raising ``Lowered``)."""
    before = getattr(_local, "lowered_only", False)
    _local.lowered_only = True
    try:
        yield
    finally:
        _local.lowered_only = before


def install(limit: int | None) -> bool:
    """Wrap the ``llir`` stage of Triton's NVIDIA backend (idempotent; ``limit`` may change).
    False where this Triton has no such backend or stage."""
    _state["limit"] = limit
    if _state["installed"]:
        return True
    try:
        from triton.backends.nvidia.compiler import CUDABackend
    except ImportError:
        return False
    original = CUDABackend.add_stages

    def add_stages(self: Any, stages: dict[str, Any], options: Any, *rest: Any, **kw: Any) -> Any:
        out = original(self, stages, options, *rest, **kw)
        if "llir" in stages:
            stages["llir"] = _checked(stages["llir"])
        return out

    CUDABackend.add_stages = add_stages
    _state["installed"] = True
    return True


def _checked(make_llir: Callable[[Any, dict[str, Any]], Any]) -> Callable[..., Any]:
    def llir(src: Any, metadata: dict[str, Any]) -> Any:
        out = make_llir(src, metadata)
        limit, shared = _state["limit"], metadata.get("shared")
        if isinstance(limit, int) and isinstance(shared, int) and shared > limit:
            from triton.runtime.errors import OutOfResources

            raise OutOfResources(shared, limit, "shared memory")
        if getattr(_local, "lowered_only", False):
            raise Lowered(dict(metadata))
        return out

    return llir
