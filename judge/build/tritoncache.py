"""Triton artefacts the runners share: compiled by trusted code, read-only in the sandbox.

A runner's Triton cache is private and starts empty (the submission must not leave files for the
next one), so without help every runner compiles, besides the submission's own kernels:

* ``cuda_utils``, Triton's driver module, a C file compiled with the host's C compiler;
* the runner's holding kernel (``judge.timing.hold``);
* on Triton versions that generate a C launcher for every kernel signature (3.6; later versions
  launch through one native module), one ``__triton_launcher`` per distinct signature of the
  submission's kernels, again with the C compiler.

On an H100 host each C compile took 0.32 s: a vector add's tests launch two signatures (``n``
becomes a constant when it is 1), so 0.63 s of a 0.79 s tests phase went to compiling launchers,
and ``cuda_utils`` plus the holding kernel made a runner's CUDA start-up 1.5 s
(``benchmarks/triton_jit.py``; benchmarks/README.md, 'Compile cost').

So the worker (trusted) keeps a Triton cache of its own (``shared_dir``), the runners read it
through ``SharedReadCache`` (bound read-only at the same path inside the sandbox) and only write
their private one. The worker fills it:

* ``prime``, when a GPU pool starts: the driver module and the holding kernel, compiled in the
  worker's own process;
* ``learn``, after each grading: a runner notes the signatures it built launchers for in its work
  folder; the worker reads that note as untrusted data, keeps only well-formed signatures of
  Triton's own type names, and compiles each launcher from source that Triton generates from the
  signature (``make_launcher``), never from anything the runner wrote. A hostile note can only
  make the worker compile launchers for signatures that exist: at most ``MAX_LEARN`` per grading
  of at most ``MAX_ARGS`` arguments each, in a child process limited to ``COMPILE_TIMEOUT_S``, one
  batch at a time with at most ``MAX_PENDING`` waiting, and ``MAX_SHARED`` launchers in all.

Nothing of a submission's own kernels is shared: they are compiled in its runner, as before.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import re
import resource
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from judge.build.cachepaths import SHARED_ENV, runner_dirs, shared_dir

log = logging.getLogger(__name__)

REPORT = ".kd-triton-launchers.jsonl"  # in the runner's work folder
MAX_LEARN = 8  # launchers compiled per grading at most
MAX_SHARED = 4000  # launchers kept in the shared folder at most (~50 KB each)
MAX_REPORT_BYTES = 64 << 10
MAX_ARGS = 64  # scalar arguments of one signature, tuples flattened
MAX_PENDING = 4  # gradings' notes waiting to be compiled; more are dropped
COMPILE_TIMEOUT_S = 120

_INTS = "i1|i8|i16|i32|i64|u1|u8|u16|u32|u64"
_FLOATS = "fp16|bf16|fp32|f32|fp64"
_FP8 = "fp8e4nv|fp8e5|fp8e4b15|fp8e4b8|fp8e5b16|fp8e8m0"
# Scalars Triton's launcher has a C type for; fp8 only behind a pointer.
_TYPE = re.compile(rf"\*k?(?:{_INTS}|{_FLOATS}|{_FP8})|{_INTS}|{_FLOATS}|constexpr|nvTmaDesc")

_pending: queue.Queue[list[list[Any]]] = queue.Queue(maxsize=MAX_PENDING)
_known: set[str] = set()  # signatures this process has had compiled
_thread: threading.Thread | None = None
_thread_lock = threading.Lock()


# -- in the runner, before the submission is loaded --------------------------------------------


def install_in_runner(workdir: Path) -> None:
    """Read through to the shared folder; note the launcher signatures built here."""
    shared = os.environ.get(SHARED_ENV) or ""
    if not shared or not os.path.isdir(shared):
        return
    from triton import knobs
    from triton.runtime.cache import FileCacheManager

    class SharedReadCache(FileCacheManager):  # type: ignore[misc]
        """Triton's file cache, looking first in the shared folder, then in the folder of this
        source's earlier gradings (sourcecache.py; both read-only here)."""

        def __init__(self, key: str, override: bool = False, dump: bool = False) -> None:
            super().__init__(key, override=override, dump=dump)
            self.shared: list[Any] = []
            if override or dump:
                return
            for top in [shared, *runner_dirs()]:
                if os.path.isdir(os.path.join(top, key)):
                    ro = FileCacheManager.__new__(FileCacheManager)
                    ro.key, ro.lock_path = key, None
                    ro.cache_dir = os.path.join(top, key)
                    self.shared.append(ro)

        def get_file(self, filename: str) -> str | None:
            for ro in self.shared:
                if p := ro.get_file(filename):
                    return str(p)
            return super().get_file(filename)

        def get_group(self, filename: str) -> dict[str, str] | None:
            for ro in self.shared:
                if g := ro.get_group(filename):
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
        from judge.timing.hold import Hold

        Hold.shared()  # compiles the holding kernel (and loads Triton's driver module)
    except Exception:
        log.exception("priming the shared Triton cache failed")


def _signature(item: Any) -> list[Any] | None:
    """A launcher signature of Triton's type names (a tuple argument as a list of them), or
    None. At most MAX_ARGS scalars in all: the launcher's C source, and gcc's time, grow with
    them (12 000 nested arguments took gcc 207 s)."""
    if not isinstance(item, list) or not item:
        return None
    out: list[Any] = []
    count = 0
    for arg in item:
        if isinstance(arg, str) and _TYPE.fullmatch(arg):
            out.append(arg)
            count += 1
        elif (
            isinstance(arg, list)
            and arg
            and all(isinstance(x, str) and _TYPE.fullmatch(x) for x in arg)
        ):
            out.append(tuple(arg))
            count += len(arg)
        else:
            return None
        if count > MAX_ARGS:
            return None
    return out


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


def _launchers(shared: Path) -> int:
    return sum(1 for _ in shared.glob("*/__triton_launcher*"))


def compile_launchers(signatures: list[list[Any]]) -> int:
    """Each signature's launcher, compiled into this process's Triton cache (the shared folder),
    from the source Triton generates for it (as ``CudaLauncher.__init__`` of Triton 3.6 does);
    how many were new. Runs in a child process of the worker (``_compile_in_child``)."""
    try:
        from triton.backends.nvidia import driver
    except ImportError:
        return 0
    make = getattr(driver, "make_launcher", None)
    if make is None:  # one native launcher in this Triton: nothing per signature
        return 0
    from triton.runtime.build import compile_module_from_src

    shared = shared_dir()
    before = _launchers(shared)
    for sig in signatures:
        if _launchers(shared) >= MAX_SHARED:
            break
        try:
            compile_module_from_src(  # a cache hit when another runner's launcher was the same
                src=make({}, dict(enumerate(sig)), None),
                name="__triton_launcher",
                library_dirs=driver.library_dirs(),
                include_dirs=driver.include_dirs,
                libraries=driver.libraries,
            )
        except Exception as e:  # one bad signature does not stop the others
            log.warning("launcher for %s not compiled: %s", sig, e)
    return _launchers(shared) - before


def _child_limits() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (COMPILE_TIMEOUT_S, COMPILE_TIMEOUT_S + 5))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _compile_in_child(signatures: list[list[Any]]) -> None:
    """In a child process: the worker does not load the launchers, and gcc is time-limited."""
    shared = shared_dir()
    if _launchers(shared) >= MAX_SHARED:
        return
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "judge.build.tritoncache"],
            input=json.dumps(signatures),
            capture_output=True,
            text=True,
            timeout=COMPILE_TIMEOUT_S,
            preexec_fn=_child_limits,
            cwd=Path(__file__).resolve().parents[2],  # where the judge package is
            check=False,
        )
    except subprocess.TimeoutExpired:
        log.warning("compiling %d launcher(s) took over %d s", len(signatures), COMPILE_TIMEOUT_S)
        return
    if proc.returncode != 0:
        log.warning("compiling launchers failed: %s", proc.stderr[-2000:])
        return
    _known.update(json.dumps(sig) for sig in signatures)
    if proc.stdout.strip() not in ("", "0"):
        log.info("shared Triton cache: %s launcher(s) added", proc.stdout.strip())


def _serve() -> None:
    while True:
        signatures = _pending.get()
        try:
            _compile_in_child(signatures)
        except Exception:
            log.exception("compiling launchers for the shared Triton cache failed")
        finally:
            _pending.task_done()


def learn(workdir: Path) -> None:
    """Queue, for a background compile, the launchers a finished runner built for itself."""
    global _thread
    signatures = [s for s in read_report(workdir) if json.dumps(s) not in _known]
    if not signatures:
        return
    with _thread_lock:
        if _thread is None:
            _thread = threading.Thread(target=_serve, name="triton-launchers", daemon=True)
            _thread.start()
    try:
        _pending.put_nowait(signatures)
    except queue.Full:  # a backlog: these are learned from a later grading
        log.info("launcher compile queue full: %d signature(s) dropped", len(signatures))


def drain(timeout_s: float = 120.0) -> bool:
    """Wait until the queued launchers are compiled; whether they were."""
    deadline = time.monotonic() + timeout_s
    while _pending.unfinished_tasks and time.monotonic() < deadline:
        time.sleep(0.05)
    return not _pending.unfinished_tasks


if __name__ == "__main__":  # the child of _compile_in_child: signatures as JSON on stdin
    logging.basicConfig(level=logging.WARNING)
    items = json.loads(sys.stdin.read())
    checked = [sig for x in items if (sig := _signature(x)) is not None][:MAX_LEARN]
    print(compile_launchers(checked))
