"""What GPU this host has, without importing torch (the web process calls this too)."""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess


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


def gpu_kind() -> str:
    """Queue and leaderboard key: ``h100``, ``h200``, ``a100``... or ``cpu`` (interpreter)."""
    env = os.environ.get("KERNELDOJO_GPU_KIND")
    if env:
        return env
    name = gpu_name()
    if not name:
        return "cpu"
    m = re.search(
        r"\b([A-Z]{1,2}\d{2,4}[A-Z]?)\b", name.replace("NVIDIA", "").replace("GeForce", "")
    )
    return (m.group(1) if m else re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")).lower()


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


def clocks() -> dict[str, object]:
    """SM/memory clocks, temperature and active throttle reasons, read through nvidia-smi."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return {}
    fields = [
        "clocks.sm",
        "clocks.mem",
        "temperature.gpu",
        "power.draw",
        "clocks_event_reasons.active",
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
        zip(["sm_mhz", "mem_mhz", "temp_c", "power_w", "reasons"], vals, strict=False)
    )
    try:
        reasons = int(str(res.get("reasons", "0")), 16)
    except ValueError:
        reasons = 0
    # Bits that mean the clocks were held down (not idle): SW/HW slowdown, thermal, power brake.
    res["throttled"] = bool(reasons & (0x4 | 0x8 | 0x20 | 0x40 | 0x80))
    return res
