"""Whether the runners' big imports have compiled bytecode next to their sources.

A runner imports torch inside a read-only sandbox: where torch was installed without
``__pycache__`` files, every runner compiles its sources again. On an H100 host whose torch had
none, a runner took 6.7-7.0 s to import instead of 2.1 s, spares were not ready when
submissions came, and vector-add's verdicts took 0.70 s (median) instead of 0.49 s
(benchmarks/README.md, 'Runner start-up'). pip writes the bytecode when it installs (the
images are built so); a GPU worker says at its start where it is missing, and how to fix it.
"""

from __future__ import annotations

import importlib.util
import logging
import sysconfig
from collections.abc import Sequence
from pathlib import Path

log = logging.getLogger(__name__)

MODULES = ("torch", "triton", "numpy")


def missing(modules: Sequence[str] | None = None) -> list[str]:
    """The installed ones among ``modules`` (``MODULES``) whose package has no bytecode for
    this Python. Never raises: it is advice at a worker's start, before its spares and warm-up.
    """
    out = []
    for name in MODULES if modules is None else modules:
        try:
            spec = importlib.util.find_spec(name)
            if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
                continue
            # optimization="": runners start without -O (and with no PYTHONOPTIMIZE), so they
            # read the plain .pyc whatever flags this worker has
            pyc = importlib.util.cache_from_source(spec.origin, optimization="")
            if not Path(pyc).exists():
                out.append(name)
        except Exception as e:  # an odd install (no __spec__, unreadable folder): not ours
            log.debug("bytecode of %s not checked: %r", name, e)
    return out


def warn_if_missing() -> list[str]:
    names = missing()
    if names:
        log.warning(
            "no compiled bytecode for %s: every runner compiles it again in its read-only "
            "sandbox (~5 s more for each runner's start on an H100 host). Run once, as the "
            "owner of site-packages: python -m compileall -q -j 0 %s",
            ", ".join(names),
            sysconfig.get_paths()["purelib"],
        )
    return names
