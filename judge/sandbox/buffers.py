"""Memory shared between the referee and the sandboxed runner.

The referee owns every input and output buffer. The runner maps them (it must read inputs and
write outputs) but never sees the referee's private copies of the inputs or the expected
outputs, which live in the referee's own memory.

* CPU (Triton interpreter): a file in the run's work folder, mapped by both processes.
* GPU: a dedicated ``cuMemAlloc`` allocation exported with CUDA IPC. Dedicated allocations
  matter: a handle to a block of torch's caching allocator would expose whatever else the
  referee keeps in that block (expected outputs included).
"""

from __future__ import annotations

import ctypes
import math
import mmap
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judge.problem import dtypes
from judge.sandbox import guards

# Every allocation is wrapped as bytes and viewed as its dtype (``_view``); only these two
# typestrs are ever handed to ``torch.as_tensor`` (bfloat16 goes through float16).
_TYPESTR = {"float16": "<f2", "uint8": "|u1"}


def _itemsize(dtype: str) -> int:
    return dtypes.get(dtype).itemsize


CUDA_ERROR_OUT_OF_MEMORY = 2


class CudaError(RuntimeError):
    def __init__(self, message: str, code: int = 0) -> None:
        super().__init__(message)
        self.code = code


class _IpcHandle(ctypes.Structure):
    _fields_ = [("reserved", ctypes.c_char * 64)]


_libcuda: Any = None


def libcuda() -> Any:
    """The CUDA driver API; the primary context torch made current is the one used."""
    global _libcuda
    if _libcuda is None:
        lib = ctypes.CDLL("libcuda.so.1")
        lib.cuMemAlloc_v2.argtypes = [ctypes.POINTER(ctypes.c_uint64), ctypes.c_size_t]
        lib.cuMemFree_v2.argtypes = [ctypes.c_uint64]
        lib.cuIpcGetMemHandle.argtypes = [ctypes.POINTER(_IpcHandle), ctypes.c_uint64]
        lib.cuIpcOpenMemHandle_v2.argtypes = [
            ctypes.POINTER(ctypes.c_uint64),
            _IpcHandle,
            ctypes.c_uint,
        ]
        lib.cuIpcCloseMemHandle.argtypes = [ctypes.c_uint64]
        _libcuda = lib
    return _libcuda


def _check(result: int, what: str) -> None:
    if result != 0:
        raise CudaError(f"{what} failed with CUresult {result}", result)


class _CudaArray:
    """Just enough of ``__cuda_array_interface__`` for ``torch.as_tensor`` to wrap a pointer."""

    def __init__(self, ptr: int, shape: tuple[int, ...], dtype: str) -> None:
        self.__cuda_array_interface__ = {
            "shape": shape,
            "typestr": _TYPESTR[dtype],
            "data": (ptr, False),
            "version": 3,
            "strides": None,
        }


def _torch_dtype(dtype: str) -> Any:
    import torch

    return getattr(torch, dtype)


def _nbytes(shape: tuple[int, ...], dtype: str) -> int:
    return max(1, math.prod(shape)) * _itemsize(dtype)


@dataclass
class SharedBuffer:
    """One tensor argument; ``tensor`` is the referee's view, ``descriptor()`` the runner's.

    The argument sits between two guard regions of the same allocation (guards.py):
    ``front`` and ``back`` are the referee's byte views of them."""

    tensor: Any
    desc: dict[str, Any]
    front: Any = None
    back: Any = None
    _ptr: int = 0
    _mmap: Any = None
    kept: bool = False  # one of the referee's benchmark buffers, reused by every grading

    def descriptor(self) -> dict[str, Any]:
        return self.desc

    def free(self) -> None:
        if self.kept:
            return
        self._free()

    def _free(self) -> None:
        self.tensor = self.front = self.back = None
        if self._mmap is not None:
            self._mmap = None  # unmapped once the last view is gone
        if self._ptr:
            libcuda().cuMemFree_v2(self._ptr)
            self._ptr = 0


def create(
    shape: tuple[int, ...], dtype: str, device: str, folder: Path, name: str
) -> SharedBuffer:
    """A shared buffer for one argument, with a guard region on each side (guards.py)."""
    import torch

    nbytes = _nbytes(shape, dtype)
    guard = guards.guard_bytes(shape, _itemsize(dtype))
    total = 2 * guard + -(-nbytes // guards.ALIGN) * guards.ALIGN
    if device == "cpu":
        # A fresh, unguessable name created exclusively and never followed through a link: the
        # folder is writable by the submission, and the referee may run as root.
        path = folder / f"{name}-{secrets.token_hex(8)}.buf"
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            os.ftruncate(fd, total)
            os.fchmod(fd, 0o666)
            mm = mmap.mmap(fd, total, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
        finally:
            os.close(fd)
        whole = torch.frombuffer(mm, dtype=torch.uint8, count=total)
        t = _view(whole, guard, shape, dtype)
        desc = {"kind": "file", "path": path.name, "offset": guard, "total": total}
        buf = SharedBuffer(t, desc, _mmap=mm)
    else:
        lib = libcuda()
        ptr = ctypes.c_uint64()
        _check(lib.cuMemAlloc_v2(ctypes.byref(ptr), total), "cuMemAlloc")
        handle = _IpcHandle()
        _check(lib.cuIpcGetMemHandle(ctypes.byref(handle), ptr.value), "cuIpcGetMemHandle")
        whole = _wrap_cuda(ptr.value, (total,), "uint8")
        t = _view(whole, guard, shape, dtype)
        desc = {"kind": "cuda_ipc", "handle": bytes(handle).hex(), "offset": guard}
        buf = SharedBuffer(t, desc, _ptr=ptr.value)
    desc.update(shape=list(shape), dtype=dtype)
    buf.front = whole[:guard]
    buf.back = whole[guard + nbytes : 2 * guard + nbytes]
    return buf


def _view(whole: Any, offset: int, shape: tuple[int, ...], dtype: str) -> Any:
    """The argument's typed view at ``offset`` bytes into a byte tensor of the allocation."""
    n = math.prod(shape) * _itemsize(dtype)
    return whole[offset : offset + n].view(_torch_dtype(dtype)).view(shape)


# Benchmark buffers outlive a grading. A fresh cuMemAlloc lands on different physical memory
# each time, and in one process on an H100 a memory-bound kernel's time moved by 2-5% from one
# allocation to the next. Reusing the same allocations times every submission a worker grades
# on the same memory (and saves the allocations; gradings still differ by ~3% for reasons not
# yet found: benchmarks/README.md). They
# are shared with one runner at a time (the previous one is dead before the next binds them),
# and every input is rewritten and every output poisoned before each call.
KEEP_LIMIT_BYTES = 12 << 30
_kept: dict[tuple[Any, ...], SharedBuffer] = {}


def kept(shape: tuple[int, ...], dtype: str, device: str, folder: Path, name: str) -> SharedBuffer:
    """A benchmark buffer: allocated once per referee process and name, then reused."""
    if device != "cuda":
        return create(shape, dtype, device, folder, name)
    key = (name, tuple(shape), dtype)
    buf = _kept.get(key)
    if buf is None:
        nbytes = _nbytes(shape, dtype)
        while _kept and sum(_nbytes(k[1], k[2]) for k in _kept) + nbytes > KEEP_LIMIT_BYTES:
            _kept.pop(next(iter(_kept)))._free()  # the oldest first
        buf = create(shape, dtype, device, folder, name)
        buf.kept = True
        _kept[key] = buf
    else:
        _kept[key] = _kept.pop(key)  # most recently used last
    return buf


def _wrap_cuda(ptr: int, shape: tuple[int, ...], dtype: str) -> Any:
    import torch

    if dtype == "bfloat16":  # no typestr for bf16: wrap as int16 and reinterpret
        t = torch.as_tensor(_CudaArray(ptr, shape, "float16"), device="cuda")
        return t.view(torch.bfloat16)
    return torch.as_tensor(_CudaArray(ptr, shape, dtype), device="cuda")


def open_descriptor(desc: dict[str, Any], folder: Path) -> tuple[Any, int]:
    """In the runner: a tensor over a buffer the referee shared; returns (tensor, ipc_ptr).

    The whole allocation is mapped, guards included (guards.py), so a store past the end of
    the argument lands in a guard instead of faulting or landing in unrelated memory."""
    import torch

    shape = tuple(desc["shape"])
    offset = int(desc.get("offset", 0))
    if desc["kind"] == "file":
        fd = os.open(folder / desc["path"], os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            total = int(desc.get("total") or os.fstat(fd).st_size)
            mm = mmap.mmap(fd, total, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
        finally:
            os.close(fd)
        whole = torch.frombuffer(mm, dtype=torch.uint8, count=total)
        return _view(whole, offset, shape, desc["dtype"]), 0
    lib = libcuda()
    ptr = ctypes.c_uint64()
    handle = _IpcHandle.from_buffer_copy(bytes.fromhex(desc["handle"]))
    _check(lib.cuIpcOpenMemHandle_v2(ctypes.byref(ptr), handle, 1), "cuIpcOpenMemHandle")
    n = math.prod(shape) * _itemsize(desc["dtype"])
    whole = _wrap_cuda(ptr.value, (offset + n,), "uint8")
    return _view(whole, offset, shape, desc["dtype"]), ptr.value


def close_mapping(ptr: int) -> None:
    _check(libcuda().cuIpcCloseMemHandle(ptr), "cuIpcCloseMemHandle")
