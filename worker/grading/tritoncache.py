"""Triton artefacts the runners share: compiled by trusted code, read-only in the sandbox.

A runner's Triton cache is private and starts empty (the submission must not leave files for the
next one), so without help every runner compiles, besides the submission's own kernels:

* ``cuda_utils``, Triton's driver module, a C file compiled with the host's C compiler;
* the runner's holding kernel (``worker.grading.hold``);
* on Triton versions that generate a C launcher for every kernel signature (3.6; later versions
  launch through one native module), one ``__triton_launcher`` per distinct signature of the
  submission's kernels, again with the C compiler.

On an H100 host each C compile took 0.32 s: a vector add's tests launch two signatures (``n``
becomes a constant when it is 1), so 0.63 s of a 0.79 s tests phase went to compiling launchers,
and ``cuda_utils`` plus the holding kernel made a runner's CUDA start-up 1.5 s
(``benchmarks/triton_jit.py``, ``benchmarks/gpu-check/2026-11-23c-h100.md``).

So the worker (trusted) keeps a Triton cache of its own (``shared_dir``), the runners read it
through ``SharedReadCache`` (bound read-only at the same path inside the sandbox) and only write
their private one. The worker fills it:

* ``prime``, when a GPU pool starts: the driver module and the holding kernel, compiled in the
  worker's own process;
* ``learn``, after each grading: a runner notes the signatures it built launchers for in its work
  folder; the worker reads that note as untrusted data, keeps only well-formed signatures of
  Triton's own type names, and compiles each launcher from source that Triton generates from the
  signature (``make_launcher``), never from anything the runner wrote. A hostile submission can
  only make the worker compile launchers for signatures that exist; ``MAX_LEARN`` bounds how many
  per grading and ``MAX_SHARED`` in all.

Nothing of a submission's own kernels is shared: they are compiled in its runner, as before.
"""

from __future__ import annotations

import json
import logging
import os
import re
import stat
import threading
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

SHARED_ENV = "KERNELDOJO_TRITON_SHARED"  # set in a runner's environment: the shared folder
REPORT = ".kd-triton-launchers.jsonl"  # in the runner's work folder
MAX_LEARN = 8  # launchers compiled per grading at most
MAX_SHARED = 4000  # launchers kept in the shared folder at most
MAX_REPORT_BYTES = 64 << 10
MAX_ARGS = 64

_SCALARS = (
    "i1|i8|i16|i32|i64|u1|u8|u16|u32|u64|fp16|bf16|fp32|f32|fp64|"
    "fp8e4nv|fp8e5|fp8e4b15|fp8e4b8|fp8e5b16|fp8e8m0"
)
_TYPE = re.compile(rf"^(?:\*k?(?:{_SCALARS})|{_SCALARS}|constexpr|nvTmaDesc)$")

_lock = threading.Lock()
_threads: list[threading.Thread] = []


def shared_dir() -> Path:
    """The worker's Triton cache (``TRITON_CACHE_DIR`` if set, else ``$KERNELDOJO_CACHE/triton``),
    made the cache of this process: call before this process compiles anything with Triton."""
    path = os.environ.get("TRITON_CACHE_DIR")
    if not path:
        from worker.grading import timing

        path = str(timing.cache_file().parent / "triton")
        os.environ["TRITON_CACHE_DIR"] = path
    p = Path(path)
    p.mkdir(parents=True, exist_ok=True)
    return p


def runner_env() -> dict[str, str]:
    """What a GPU runner needs to read the shared cache."""
    return {SHARED_ENV: str(shared_dir())}


# -- in the runner, before the submission is loaded --------------------------------------------


def install_in_runner(workdir: Path) -> None:
    """Read through to the shared folder; note the launcher signatures built here."""
    shared = os.environ.get(SHARED_ENV) or ""
    if not shared or not os.path.isdir(shared):
        return
    from triton import knobs
    from triton.runtime.cache import FileCacheManager

    class SharedReadCache(FileCacheManager):  # type: ignore[misc]
        """Triton's file cache, looking first in the shared folder (read-only here)."""

        def __init__(self, key: str, override: bool = False, dump: bool = False) -> None:
            super().__init__(key, override=override, dump=dump)
            self.shared: Any = None
            if not (override or dump) and os.path.isdir(os.path.join(shared, key)):
                ro = FileCacheManager.__new__(FileCacheManager)
                ro.key, ro.lock_path = key, None
                ro.cache_dir = os.path.join(shared, key)
                self.shared = ro

        def get_file(self, filename: str) -> str | None:
            if self.shared is not None and (p := self.shared.get_file(filename)):
                return str(p)
            return super().get_file(filename)

        def get_group(self, filename: str) -> dict[str, str] | None:
            if self.shared is not None and (g := self.shared.get_group(filename)):
                return g
            return super().get_group(filename)

    knobs.cache.manager_class = SharedReadCache
    try:
        from triton.backends.nvidia import driver
    except ImportError:
        return
    make = getattr(driver, "make_launcher", None)
    if make is None:  # a Triton with one native launcher: nothing per signature
        return
    report = workdir / REPORT

    def noting(constants: Any, signature: Any, tensordesc_meta: Any = None) -> Any:
        src = make(constants, signature, tensordesc_meta)
        if not tensordesc_meta:
            try:
                with report.open("a") as f:
                    f.write(json.dumps(list(signature.values())) + "\n")
            except (OSError, TypeError, ValueError):
                pass
        return src

    driver.make_launcher = noting


# -- in the worker (trusted) ------------------------------------------------------------------


def prime() -> None:
    """The driver module and the holding kernel, compiled into the shared folder now."""
    shared_dir()
    try:
        from worker.grading import baseline

        baseline._hold()  # compiles the holding kernel (and loads Triton's driver module)
    except Exception:
        log.exception("priming the shared Triton cache failed")


def _signature(item: Any, depth: int = 0) -> Any:
    """A launcher signature of Triton's type names (tuples as nested lists), or None."""
    if isinstance(item, str):
        return item if _TYPE.match(item) else None
    if isinstance(item, list) and depth < 3 and 0 < len(item) <= MAX_ARGS:
        parts = [_signature(x, depth + 1) for x in item]
        if any(p is None for p in parts):
            return None
        return parts if depth == 0 else tuple(parts)
    return None


def read_report(workdir: Path) -> list[list[Any]]:
    """The well-formed, distinct signatures a runner noted (untrusted input; at most MAX_LEARN)."""
    try:
        fd = os.open(workdir / REPORT, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return []
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # a FIFO or device planted there: ignored
            return []
        data = os.read(fd, MAX_REPORT_BYTES)
    except OSError:
        return []
    finally:
        os.close(fd)
    out: list[list[Any]] = []
    for line in data.decode("utf-8", "replace").splitlines():
        try:
            sig = _signature(json.loads(line))
        except ValueError:
            continue
        if sig is not None and sig not in out:
            out.append(sig)
        if len(out) >= MAX_LEARN:
            break
    return out


def _compile_launchers(signatures: list[list[Any]]) -> int:
    """Each signature's launcher, compiled into this process's (the shared) cache; how many
    were new. Mirrors ``CudaLauncher.__init__`` of Triton 3.6."""
    from triton.backends.nvidia import driver
    from triton.runtime.build import compile_module_from_src

    make = getattr(driver, "make_launcher", None)
    if make is None:
        return 0
    shared = shared_dir()
    before = sum(1 for _ in shared.glob("*/__triton_launcher*"))
    if before >= MAX_SHARED:
        return 0
    for sig in signatures:
        src = make({}, dict(enumerate(sig)), None)
        compile_module_from_src(  # a cache hit when another runner's launcher was the same
            src=src,
            name="__triton_launcher",
            library_dirs=driver.library_dirs(),
            include_dirs=driver.include_dirs,
            libraries=driver.libraries,
        )
    return sum(1 for _ in shared.glob("*/__triton_launcher*")) - before


def learn(workdir: Path, wait: bool = False) -> threading.Thread | None:
    """Compile, in the background, the launchers a finished runner built for itself."""
    signatures = read_report(workdir)
    if not signatures:
        return None

    def work() -> None:
        with _lock:
            try:
                n = _compile_launchers(signatures)
                if n:
                    log.info("shared Triton cache: %d launcher(s) added", n)
            except Exception:
                log.exception("compiling launchers for the shared Triton cache failed")

    t = threading.Thread(target=work, name="triton-launchers", daemon=False)
    t.start()
    _threads.append(t)
    if wait:
        t.join()
    return t


def drain(timeout_s: float = 60.0) -> None:
    """Wait for launchers still being compiled."""
    for t in list(_threads):
        t.join(timeout_s)
        if not t.is_alive():
            _threads.remove(t)
