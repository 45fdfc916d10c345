"""Out-of-bounds detection for Triton's CPU interpreter, in the runner.

Triton's interpreter reads and writes raw memory at whatever addresses a kernel computes, with
no check of its own: a load without its mask reads what lies past a tensor, a store without
its mask writes there (the judge's guard bands catch the store afterwards, ``guards.py``, but
not where it came from). Here every launch records the memory of the tensors it was given
(each a [start, end) byte range), and every masked-in lane of every load, store and atomic is
checked against them before the interpreter touches memory. A lane outside every tensor is a
finding, with the line of the submission that made it (the interpreter runs the kernel's
Python code, so the line is on the stack): "out-of-bounds store at solution.py:14: 3 of 1024
lanes, up to 12 bytes past the end of c_ptr". The first findings go to the referee with the
call's reply; a lane far beyond every tensor's storage (``FAR_BYTES``) would read or write
unrelated memory (a crash at best), so it stops the call with that message instead.

The submission runs in this process and could undo the patch: this is help for honest code,
not a wall (the guard bands are the judge's check).
"""

from __future__ import annotations

import sys
from dataclasses import asdict
from typing import Any

from judge.profile.report import Finding

MAX_FINDINGS = 5
# A lane this far from every tensor's storage would touch unrelated memory: the call stops there.
# Nearer, it reads or writes slack the allocation had anyway (a guard band, an allocator's
# rounding), as it would on a GPU: a finding, not a stop.
FAR_BYTES = 64 << 10
SOURCE_NAMES = ("solution.py",)


class OutOfBounds(IndexError):
    """A lane far outside every tensor of the launch: the interpreter would touch memory the
    kernel was never given."""


class _State:
    def __init__(self) -> None:
        # (name, start, end, storage start, storage end) of each tensor of the current launch
        self.regions: list[tuple[str, int, int, int, int]] = []
        self.findings: list[Finding] = []
        self.seen: set[tuple[str, int | None]] = set()
        self.installed = False


_state = _State()


def _span(t: Any) -> tuple[int, int, int, int]:
    """A tensor's own bytes and its storage's, as [start, end) addresses."""
    item = t.element_size()
    start = t.data_ptr()
    if t.numel() == 0:
        end = start
    else:
        last = sum((s - 1) * st for s, st in zip(t.shape, t.stride(), strict=True) if s > 0)
        first = sum((s - 1) * st for s, st in zip(t.shape, t.stride(), strict=True) if st < 0)
        start, end = start + first * item, start + (last + 1) * item
    storage = t.untyped_storage()
    return start, end, storage.data_ptr(), storage.data_ptr() + storage.nbytes()


def _regions(names: list[str], args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
    out: list[tuple[str, int, int, int, int]] = []

    def add(name: str, value: Any) -> None:
        if isinstance(value, tuple | list):
            for i, v in enumerate(value):
                add(f"{name}[{i}]", v)
        elif hasattr(value, "base") and hasattr(value, "block_shape"):  # a TensorDescriptor
            add(name, value.base)
        elif hasattr(value, "data_ptr") and hasattr(value, "untyped_storage"):
            out.append((name, *_span(value)))

    for i, value in enumerate(args):
        add(names[i] if i < len(names) else f"argument {i}", value)
    for k, value in kwargs.items():
        add(k, value)
    return out


def _line() -> tuple[str | None, int | None]:
    """The submission's file and line on the stack (the kernel line being interpreted)."""
    f = sys._getframe(2)
    while f is not None:
        name = f.f_code.co_filename.rsplit("/", 1)[-1]
        if name in SOURCE_NAMES:
            return name, f.f_lineno
        f = f.f_back  # type: ignore[assignment]
    return None, None


def _check(kind: str, ptrs: Any, mask: Any, itemsize: int) -> None:
    import numpy as np

    if not _state.regions:
        return
    p = np.asarray(ptrs).astype(np.int64, copy=False).reshape(-1)
    m = np.asarray(mask, dtype=bool).reshape(-1) if mask is not None else None
    if m is not None and m.shape == p.shape:
        p = p[m]
    if p.size == 0:
        return
    inside = np.zeros(p.shape, dtype=bool)
    near = np.zeros(p.shape, dtype=bool)
    for _, start, end, s0, s1 in _state.regions:
        inside |= (p >= start) & (p + itemsize <= end)
        near |= (p >= s0 - FAR_BYTES) & (p + itemsize <= s1 + FAR_BYTES)
    if inside.all():
        return
    bad = p[~inside]
    nearest = min(
        _state.regions, key=lambda r: min(abs(int(bad[0]) - r[1]), abs(int(bad[0]) - r[2]))
    )
    name, start, end = nearest[0], nearest[1], nearest[2]
    after = bad[bad >= end]
    before = bad[bad < start]
    if after.size:
        where = f"up to {int(after.max()) + itemsize - end} bytes past the end of {name}"
    else:
        where = f"up to {start - int(before.min())} bytes before the start of {name}"
    file, line = _line()
    at = f" at {file}:{line}" if file else ""
    msg = f"out-of-bounds {kind}{at}: {bad.size} of {p.size} active lanes, {where}"
    if not near.all():
        raise OutOfBounds(msg + " (outside every tensor the kernel was given: add a mask)")
    key = (kind, line)
    if key in _state.seen or len(_state.findings) >= MAX_FINDINGS:
        return
    _state.seen.add(key)
    _state.findings.append(Finding(f"out-of-bounds {kind}", msg, file, line))


def _itemsize(handle: Any) -> int:
    try:
        return int(handle.get_element_ty().primitive_bitwidth) // 8 or 1
    except Exception:  # an element type without a width: check the first byte only
        return 1


def install() -> None:
    """Patch the interpreter's launch and memory operations (once per runner)."""
    if _state.installed:
        return
    from triton.runtime import interpreter as ti

    builder = ti.InterpreterBuilder
    launch = ti.GridExecutor.__call__
    load, store = builder.create_masked_load, builder.create_masked_store
    rmw, cas = builder.create_atomic_rmw, builder.create_atomic_cas

    def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        outer = _state.regions
        _state.regions = _regions(list(self.arg_names), args, kwargs)
        try:
            return launch(self, *args, **kwargs)
        finally:
            _state.regions = outer

    def masked_load(self: Any, ptrs: Any, mask: Any, *a: Any, **k: Any) -> Any:
        _check("load", ptrs.data, mask.data, _itemsize(ptrs))
        return load(self, ptrs, mask, *a, **k)

    def masked_store(self: Any, ptrs: Any, value: Any, mask: Any, *a: Any, **k: Any) -> Any:
        _check("store", ptrs.data, mask.data, _itemsize(ptrs))
        return store(self, ptrs, value, mask, *a, **k)

    def atomic_rmw(self: Any, op: Any, ptr: Any, val: Any, mask: Any, *a: Any, **k: Any) -> Any:
        _check("atomic", ptr.data, mask.data, _itemsize(ptr))
        return rmw(self, op, ptr, val, mask, *a, **k)

    def atomic_cas(self: Any, ptr: Any, cmp: Any, val: Any, *a: Any, **k: Any) -> Any:
        _check("atomic", ptr.data, None, _itemsize(ptr))
        return cas(self, ptr, cmp, val, *a, **k)

    ti.GridExecutor.__call__ = call
    builder.create_masked_load = masked_load
    builder.create_masked_store = masked_store
    builder.create_atomic_rmw = atomic_rmw
    builder.create_atomic_cas = atomic_cas
    _state.installed = True


def take_findings() -> list[dict[str, Any]]:
    """The findings since the last call, as the runner sends them."""
    out = [asdict(f) for f in _state.findings]
    _state.findings = []
    _state.seen = set()
    return out
