"""Where the judge keeps its caches, in one place: the trusted side's root, the worker's shared
Triton cache, the per-source folder of compiled kernels, and the environment variables that tell a
runner which of them it may read.

The Triton cache (tritoncache.py) and the per-source cache (sourcecache.py) both need these names;
keeping them here lets neither module import the other.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

SHARED_ENV = "KERNELDOJO_TRITON_SHARED"  # set in a runner's environment: the shared folder
ROOT_ENV = "KERNELDOJO_TRITON_BY_SOURCE"  # set in a runner's environment: the per-source root
KEY_ENV = "KERNELDOJO_TRITON_SOURCE"  # in a runner: its source's folder (set at load, not at start)


def cache_root() -> Path:
    """The judge's cache folder: ``$KERNELDOJO_CACHE``, else ``~/.cache/kerneldojo``."""
    return Path(os.environ.get("KERNELDOJO_CACHE", Path.home() / ".cache" / "kerneldojo"))


def shared_dir() -> Path:
    """The worker's Triton cache (``TRITON_CACHE_DIR`` if set, else ``$KERNELDOJO_CACHE/triton``),
    made the cache of this process: call before this process compiles anything with Triton."""
    path = os.environ.get("TRITON_CACHE_DIR")
    if not path:
        path = str(cache_root() / "triton")
        os.environ["TRITON_CACHE_DIR"] = path
    p = Path(path).resolve()  # bound at this path in the sandbox: never relative
    p.mkdir(parents=True, exist_ok=True)
    os.environ["TRITON_CACHE_DIR"] = str(p)
    return p


def by_source_root() -> Path:
    """Beside the worker's shared Triton cache; listable by the worker only."""
    return _made(shared_dir().parent / "triton-by-source")


@functools.cache
def _made(path: Path) -> Path:
    path.mkdir(mode=0o311, exist_ok=True)
    os.chmod(path, 0o311)
    return path


def runner_env() -> dict[str, str]:
    """What a GPU runner needs to read the shared cache and its source's compiled kernels."""
    return {SHARED_ENV: str(shared_dir()), ROOT_ENV: str(by_source_root())}


def runner_dirs() -> list[str]:
    """In a runner: the source's folder to read after the shared one, if the referee named one."""
    k = os.environ.get(KEY_ENV, "")
    base = os.environ.get(ROOT_ENV, "")
    if not (k and base and re.fullmatch(r"[0-9a-f]{40}", k)):
        return []
    return [os.path.join(base, k)]
