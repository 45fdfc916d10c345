"""How much GPU memory a sandboxed runner holds, read by the referee (never by the runner).

A submission may allocate scratch memory, up to its problem's budget (``Problem.gpu_budget_mb``).
The runner caps torch's allocator at that budget, but a cap inside the submission's process is
the submission's to lift (``cudaMalloc`` from CUDA ignores it), so the referee measures: NVML
lists the memory each process holds on the GPU; the runner's processes are found by their pids.
Where NVML lists none of them (a worker in a container with its own PID namespace sees other
pids than NVML reports), the device's used memory less what it was when the runner was ready
stands in: the referee's own allocations between the two readings are counted against the
runner, which the budget's margin absorbs.

Only ctypes and the driver's ``libnvidia-ml.so.1``: the judge core runs on hosts with nothing
but torch, triton and numpy.
"""

from __future__ import annotations

import ctypes
import functools
import logging
from collections.abc import Iterable
from typing import Any

log = logging.getLogger(__name__)


class _ProcessInfo(ctypes.Structure):
    # nvmlProcessInfo_t as nvmlDeviceGetComputeRunningProcesses_v3 fills it
    _fields_ = [
        ("pid", ctypes.c_uint),
        ("usedGpuMemory", ctypes.c_ulonglong),
        ("gpuInstanceId", ctypes.c_uint),
        ("computeInstanceId", ctypes.c_uint),
    ]


@functools.cache
def _nvml() -> tuple[Any, Any] | None:
    """(the library, the handle of the GPU torch uses), or None where NVML is unusable."""
    try:
        import torch

        lib = ctypes.CDLL("libnvidia-ml.so.1")
        if lib.nvmlInit_v2() != 0:
            return None
        handle = ctypes.c_void_p()
        uuid = str(torch.cuda.get_device_properties(torch.cuda.current_device()).uuid)
        name = (uuid if uuid.startswith("GPU-") else f"GPU-{uuid}").encode()
        if lib.nvmlDeviceGetHandleByUUID(name, ctypes.byref(handle)) != 0:
            index = torch.cuda._get_nvml_device_index(torch.cuda.current_device())
            if lib.nvmlDeviceGetHandleByIndex_v2(index, ctypes.byref(handle)) != 0:
                return None
        return lib, handle
    except (OSError, AttributeError, RuntimeError) as e:
        log.info("NVML unavailable for GPU memory accounting: %s", e)
        return None


def process_bytes(pids: Iterable[int]) -> int | None:
    """GPU memory held by any of ``pids`` as NVML reports it; None if NVML lists none of them
    (or is missing)."""
    nv = _nvml()
    if nv is None:
        return None
    lib, handle = nv
    count = ctypes.c_uint(64)
    infos = (_ProcessInfo * 64)()
    fn = getattr(lib, "nvmlDeviceGetComputeRunningProcesses_v3", None)
    if fn is None or fn(handle, ctypes.byref(count), infos) != 0:
        return None
    wanted = set(pids)
    held = [infos[i].usedGpuMemory for i in range(min(count.value, 64)) if infos[i].pid in wanted]
    return sum(held) if held else None


def device_used_bytes() -> int:
    """The device's used memory, as the CUDA driver reports it to the referee."""
    import torch

    free, total = torch.cuda.mem_get_info()
    return int(total - free)


class Meter:
    """The runner's GPU memory beyond what it held once ready, before any submission code."""

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids
        own = process_bytes(pids)
        self.per_process = own is not None
        self.base = own if own is not None else device_used_bytes()

    def extra_bytes(self, pids: list[int]) -> int:
        if self.per_process:
            now = process_bytes(pids)
            return max(0, now - self.base) if now is not None else 0  # none left: all freed
        return max(0, device_used_bytes() - self.base)
