"""What GPU this host has, without importing torch (the web process calls this too)."""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from typing import Any


@functools.cache
def gpu_name() -> str | None:
    """Name of the first NVIDIA GPU (as nvidia-smi reports it), or None."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None
    try:
        out = subprocess.run(
            [smi, "--query-gpu=name", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=20,
            check=True,
        ).stdout
    except (subprocess.SubprocessError, OSError):
        return None
    names = [line.strip() for line in out.splitlines() if line.strip()]
    return names[0] if names else None


def kind_from_name(name: str) -> str:
    """``NVIDIA H100 80GB HBM3`` -> ``h100``; ``NVIDIA GeForce RTX 4090`` -> ``rtx4090``."""
    n = name.lower().replace("nvidia", "").replace("geforce", "").strip()
    m = re.search(r"\b(rtx\s*\d{4}|[a-z]{1,2}\d{2,4})\b", n)
    return (
        re.sub(r"\s+", "", m.group(1)) if m else re.sub(r"[^a-z0-9]+", "-", n).strip("-") or "gpu"
    )


def gpu_kind() -> str:
    """Queue and leaderboard key: ``h100``, ``h200``, ``a100``... or ``cpu`` (interpreter).

    The web process and the workers both name queues with this (no torch import)."""
    env = os.environ.get("KERNELDOJO_GPU_KIND")
    if env:
        return env
    name = gpu_name()
    return kind_from_name(name) if name else "cpu"


@functools.cache
def compute_capability() -> tuple[int, int] | None:
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None
    try:
        out = subprocess.run(
            [smi, "--query-gpu=compute_cap", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=20,
            check=True,
        ).stdout.split()
        major, minor = out[0].split(".")
        return int(major), int(minor)
    except (subprocess.SubprocessError, OSError, ValueError, IndexError):
        return None


GPU_INDEX_ENV = "KERNELDOJO_GPU_INDEX"


def pin_gpu(index: int) -> None:
    """Make this process (and the runners it starts) use only GPU ``index`` of the host: one
    worker per GPU. The worker's own CUDA work (references, the referee) follows
    CUDA_VISIBLE_DEVICES; the sandbox binds only that GPU's device node (sandbox._gpu_nodes)
    and names it by UUID inside (``sandbox_visible_devices``). Call before torch starts CUDA."""
    os.environ[GPU_INDEX_ENV] = str(index)
    os.environ["CUDA_VISIBLE_DEVICES"] = str(index)


@functools.cache
def gpu_uuid(index: str) -> str | None:
    """``GPU-...`` UUID of the host's GPU ``index`` (nvidia-smi's numbering), or None."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None
    try:
        out = subprocess.run(
            [smi, "--query-gpu=uuid", "--format=csv,noheader", f"--id={index}"],
            capture_output=True,
            text=True,
            timeout=20,
            check=True,
        ).stdout.strip()
    except (subprocess.SubprocessError, OSError):
        return None
    return out if out.startswith(("GPU-", "MIG-")) else None


def sandbox_visible_devices() -> str | None:
    """CUDA_VISIBLE_DEVICES inside a runner's sandbox of a pinned worker: the GPU's UUID. The
    sandbox has only that GPU's device node but a fresh /proc that lists every GPU, so an index
    would depend on how the driver counts GPUs it cannot open; a UUID names the one GPU either
    way. None: not pinned (all the GPU nodes the worker sees are bound, its own
    CUDA_VISIBLE_DEVICES passes through)."""
    index = os.environ.get(GPU_INDEX_ENV)
    if index is None:
        return None
    return gpu_uuid(index) or os.environ.get("CUDA_VISIBLE_DEVICES")


# Clock-event bits that mean the clocks were held down: HW slowdown, SW/HW thermal slowdown,
# power brake. SW power cap (0x4) is reported by an H100 even when idle at 1965 of 1980 MHz:
# it counts only when the SM clock is really down.
_THROTTLE_BITS = 0x8 | 0x20 | 0x40 | 0x80
_SW_POWER_CAP = 0x4


def _throttled(reasons: int, sm_mhz: int, sm_max_mhz: int) -> bool:
    if reasons & _THROTTLE_BITS:
        return True
    return bool(reasons & _SW_POWER_CAP) and sm_max_mhz > 0 and sm_mhz < 0.95 * sm_max_mhz


@functools.cache
def _nvml_handle() -> object | None:
    """NVML (nvidia-ml-py) handle of the GPU torch uses, or None where NVML is missing."""
    try:
        import pynvml
        import torch

        pynvml.nvmlInit()
        index = torch.cuda._get_nvml_device_index(torch.cuda.current_device())
        return pynvml.nvmlDeviceGetHandleByIndex(index)
    except Exception:
        return None


def clocks() -> dict[str, object]:
    """SM/memory clocks, temperature, power and throttle reasons of the GPU in use.

    Through NVML (a few microseconds) where nvidia-ml-py is installed, else nvidia-smi (about
    0.1 s a call, which the grader pays twice per benchmark case)."""
    handle = _nvml_handle()
    if handle is not None:
        try:
            import pynvml

            reasons_fn: Any = getattr(
                pynvml,
                "nvmlDeviceGetCurrentClocksEventReasons",
                getattr(pynvml, "nvmlDeviceGetCurrentClocksThrottleReasons", None),
            )
            reasons = int(reasons_fn(handle))
            sm = int(pynvml.nvmlDeviceGetClockInfo(handle, pynvml.NVML_CLOCK_SM))
            sm_max = int(pynvml.nvmlDeviceGetMaxClockInfo(handle, pynvml.NVML_CLOCK_SM))
            return {
                "sm_mhz": str(sm),
                "sm_max_mhz": str(sm_max),
                "mem_mhz": str(pynvml.nvmlDeviceGetClockInfo(handle, pynvml.NVML_CLOCK_MEM)),
                "temp_c": str(pynvml.nvmlDeviceGetTemperature(handle, pynvml.NVML_TEMPERATURE_GPU)),
                "power_w": f"{pynvml.nvmlDeviceGetPowerUsage(handle) / 1000:.2f}",
                "reasons": f"0x{reasons:016x}",
                "throttled": _throttled(reasons, sm, sm_max),
            }
        except Exception:
            pass
    return _clocks_smi()


def _clocks_smi() -> dict[str, object]:
    smi = shutil.which("nvidia-smi")
    if not smi:
        return {}
    fields = [
        "clocks.sm",
        "clocks.mem",
        "temperature.gpu",
        "power.draw",
        "clocks_event_reasons.active",
        "clocks.max.sm",
    ]
    try:
        out = subprocess.run(
            [smi, f"--query-gpu={','.join(fields)}", "--format=csv,noheader,nounits"],
            capture_output=True,
            text=True,
            timeout=20,
            check=True,
        ).stdout.splitlines()[0]
    except (subprocess.SubprocessError, OSError, IndexError):
        return {}
    vals = [v.strip() for v in out.split(",")]
    res: dict[str, object] = dict(
        zip(["sm_mhz", "mem_mhz", "temp_c", "power_w", "reasons", "sm_max_mhz"], vals, strict=False)
    )
    try:
        reasons = int(str(res.get("reasons", "0")), 16)
    except ValueError:
        reasons = 0
    try:
        sm, sm_max = int(str(res.get("sm_mhz"))), int(str(res.get("sm_max_mhz")))
    except ValueError:
        sm, sm_max = 0, 0
    res["throttled"] = _throttled(reasons, sm, sm_max)
    return res
