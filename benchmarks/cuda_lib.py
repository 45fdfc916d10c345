"""A CUDA ``solve`` built as the judge builds it, loaded with ctypes: for the benchmark scripts
that time CUDA candidates outside the judge (``matmul_variants.py``, ``attention_variants.py``).
"""

from __future__ import annotations

import ctypes
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from judge.build import compilers  # noqa: E402


def load_solve(source: Path, tmp: Path, pointers: int, ints: int) -> Any:
    """``solve`` from ``source``, compiled with the judge's nvcc flags into ``tmp``; its
    arguments are ``pointers`` device pointers then ``ints`` ints."""
    so = tmp / (source.stem + ".so")
    nvcc = compilers.nvcc_path() or "nvcc"
    subprocess.run(
        [nvcc, *compilers.nvcc_flags(), "-shared", "-o", str(so), str(source)], check=True
    )
    lib = ctypes.CDLL(str(so))
    lib.solve.argtypes = [ctypes.c_void_p] * pointers + [ctypes.c_int] * ints
    lib.solve.restype = None
    return lib
