"""What this host runs the judge with: Python, the OS, the CPU, the GPU and its driver, and the
versions of the packages and tools the languages need.

``kerneldojo doctor`` prints it and a worker stores it with its self-test (judge/doctor.py), so
that an admin reading "Numba is unavailable" also reads which numba, numba-cuda and NumPy the
worker has. Package versions come from their installed metadata (nothing is imported for them);
the GPU from torch, and its driver from NVML (nvidia-ml-py) or nvidia-smi where present.
"""

from __future__ import annotations

import importlib.metadata
import os
import platform
import re
import shutil
import subprocess
from typing import Any

# Distributions whose versions are reported, in this order. ``cupy`` is looked up by prefix:
# its wheels are named after the CUDA version (cupy-cuda12x).
PACKAGES = ("torch", "triton", "numpy", "numba", "numba-cuda", "jax", "jaxlib", "cupy")
TOOL_TIMEOUT_S = 20


def package_version(name: str) -> str | None:
    """The installed version of distribution ``name`` (``cupy``: any ``cupy-*`` wheel), or None."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        pass
    if name == "cupy":
        for dist in importlib.metadata.distributions():
            dist_name = (dist.metadata["Name"] or "").lower()
            if dist_name.startswith("cupy-"):
                return f"{dist.version} ({dist_name})"
    return None


def _run(argv: list[str]) -> str | None:
    try:
        out = subprocess.run(
            argv, capture_output=True, text=True, timeout=TOOL_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return (out.stdout or out.stderr or "").strip() if out.returncode == 0 else None


def nvcc_version() -> str | None:
    """``nvcc --version``'s release ("12.8, V12.8.93"), or None where nvcc is not on PATH."""
    nvcc = shutil.which("nvcc")
    if not nvcc:
        return None
    text = _run([nvcc, "--version"]) or ""
    m = re.search(r"release ([^\n]+)", text)
    return m.group(1).strip() if m else (text.splitlines()[-1] if text else "unknown")


def bubblewrap_version() -> str | None:
    """``bwrap --version``'s version ("0.8.0"), or None where the sandbox's bwrap is missing."""
    from judge.sandbox import bubblewrap

    try:
        path = bubblewrap.bwrap_path()
    except bubblewrap.SandboxUnavailable:
        return None
    return (_run([path, "--version"]) or "unknown").removeprefix("bubblewrap").strip()


def _driver_version() -> str | None:
    try:
        import pynvml

        pynvml.nvmlInit()
        v = pynvml.nvmlSystemGetDriverVersion()
        return v.decode() if isinstance(v, bytes) else str(v)
    except Exception:  # no nvidia-ml-py, or no driver: nvidia-smi says, if it is there
        smi = shutil.which("nvidia-smi")
        out = _run([smi, "--query-gpu=driver_version", "--format=csv,noheader"]) if smi else None
        return out.splitlines()[0].strip() if out else None


def gpu(device: str) -> dict[str, Any] | None:
    """The GPU torch grades on (``device`` "cuda"): name, compute capability, memory, driver and
    torch's CUDA version; None on the CPU."""
    if device != "cuda":
        return None
    import torch

    if not torch.cuda.is_available():
        return None
    i = torch.cuda.current_device()
    props = torch.cuda.get_device_properties(i)
    return {
        "name": props.name,
        "compute_capability": f"{props.major}.{props.minor}",
        "memory_gib": round(props.total_memory / 2**30, 1),
        "count": torch.cuda.device_count(),
        "driver": _driver_version(),
        "cuda": torch.version.cuda,
    }


def report(device: str) -> dict[str, Any]:
    """The whole environment as plain JSON data (``device``: "cuda" or "cpu")."""
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "os": platform.platform(terse=True),
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "device": device,
        "gpu": gpu(device),
        "packages": {name: package_version(name) for name in PACKAGES},
        "tools": {"nvcc": nvcc_version(), "bubblewrap": bubblewrap_version()},
        "sandbox": os.environ.get("KERNELDOJO_SANDBOX", "bwrap"),
        "kernel_ledger": kernel_ledger(device),
    }


def kernel_ledger(device: str) -> dict[str, Any] | None:
    """The referee's kernel ledger on a GPU (sandbox/ledger.py): its library, or why none, and
    the libcupti files a runner tries."""
    if device != "cuda":
        return None
    from judge.sandbox import ledger

    built = ledger.library()
    return {"library": built.path, "why": built.why or None, "cupti": ledger.cupti_candidates()}
