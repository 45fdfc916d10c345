"""A test's script run in a child Python process (Triton's interpreter switch and JAX's Pallas
wrapper are process-wide): it prints one line ``REPORT <json>``, which is returned."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def run_child(folder: Path, source: str, **env: str) -> dict[str, Any]:
    """Write ``source`` to ``folder/child.py``, run it with the repository on ``PYTHONPATH``, a
    Triton cache of its own and ``env``, and return what its ``REPORT`` line holds."""
    script = folder / "child.py"
    script.write_text(source)
    full = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "TRITON_CACHE_DIR": str(folder / "triton-cache"),
        **env,
    }
    proc = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=full, timeout=600
    )
    line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("REPORT ")), None)
    assert line, proc.stdout[-3000:] + proc.stderr[-3000:]
    return dict(json.loads(line[len("REPORT ") :]))
