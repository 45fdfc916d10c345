"""Which GPU this host has, named as a queue (``h100``, ``a100``, ... or ``cpu``).

Uses ``nvidia-smi`` so that the web process never imports torch; the judge core's own
``worker.grading.device.gpu_kind`` is preferred inside workers when it exists.
"""

from __future__ import annotations

import logging
import re
import shutil
import subprocess
from functools import lru_cache

log = logging.getLogger(__name__)


def kind_from_name(name: str) -> str:
    """``NVIDIA H100 80GB HBM3`` -> ``h100``; ``NVIDIA GeForce RTX 4090`` -> ``rtx4090``."""
    n = name.lower().replace("nvidia", "").replace("geforce", "").strip()
    m = re.search(r"\b(rtx\s*\d{4}|[a-z]{1,2}\d{2,4})\b", n)
    return (
        re.sub(r"\s+", "", m.group(1)) if m else re.sub(r"[^a-z0-9]+", "-", n).strip("-") or "gpu"
    )


@lru_cache
def detect_gpu_kind() -> str:
    smi = shutil.which("nvidia-smi")
    if not smi:
        return "cpu"
    try:
        out = subprocess.run(
            [smi, "--query-gpu=name", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError) as e:
        log.warning("nvidia-smi failed (%s); grading on the CPU interpreter", e)
        return "cpu"
    names = [line.strip() for line in out.splitlines() if line.strip()]
    return kind_from_name(names[0]) if names else "cpu"
