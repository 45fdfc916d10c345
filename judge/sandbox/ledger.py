"""The kernel ledger, the referee's side: which kernels a GPU runner launched, told by the CUDA
driver rather than by the runner.

A rule that runs in the submission's process (rules.py's dispatch mode) can be switched off by
any code that runs there. The ledger is outside Python: ``kd_ledger.c``, built here with the host's
C compiler, is loaded by the CUDA driver into every GPU runner (``CUDA_INJECTION64_PATH``) as the
runner's CUDA context starts, before any submission code exists. Through CUPTI's callbacks it
writes each new kernel name to a pipe the referee reads (``Reader``). After the submission is
loaded, every kernel must be its own (the language says which names are: ``Language.
kernel_owner``), the judge's timing kernels, or torch's fill kernel (``torch.zeros``): a
``torch.add`` or cuBLAS matmul is seen by name, whatever the submission did to Python.

The ledger is off where it cannot be built or CUPTI cannot start (the grading then keeps the
in-process rule alone and says so in its phases and in ``kerneldojo doctor``), under a profiling
tool (which brings its own injection), on the CPU device, and with ``KERNELDOJO_LEDGER=0``.
"""

from __future__ import annotations

import contextlib
import functools
import glob
import hashlib
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from judge.build import cachepaths

SWITCH_ENV = "KERNELDOJO_LEDGER"
SOURCE = Path(__file__).with_name("kd_ledger.c")
# The judge's own kernels in a runner (timing/hold.py): the holding and stamping kernels.
HARNESS = frozenset({"_hold", "_stamp", "_stamp_end"})
# torch.zeros/ones/full/fill_/zero_ on scratch memory: allocation, allowed as rules.py allows it.
_FILL = "FillFunctor"


@dataclass
class Built:
    path: str | None  # the injection library, or None
    why: str  # why not, when it is None


def _include_dir() -> str | None:
    """CUDA's and CUPTI's headers: the ones Triton ships, else the CUDA toolkit's."""
    roots = []
    try:
        import triton

        roots.append(Path(triton.__file__).parent / "backends" / "nvidia" / "include")
    except ImportError:
        pass
    for env in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(env):
            roots += [
                Path(os.environ[env]) / "include",
                Path(os.environ[env]) / "extras/CUPTI/include",
            ]
    roots += [Path("/usr/local/cuda/include"), Path("/usr/local/cuda/extras/CUPTI/include")]
    for root in roots:
        if (root / "cupti.h").is_file() and (root / "cuda.h").is_file():
            return str(root)
    return None


_build_lock = threading.Lock()


def library() -> Built:
    """The injection library, built once per source, headers and compiler (cached on disk)."""
    with _build_lock:
        try:
            return _library()
        except (OSError, subprocess.SubprocessError) as e:  # the host's fault: never a grading's
            return Built(None, f"could not build it: {type(e).__name__}: {e}")


@functools.cache
def _library() -> Built:
    if os.environ.get(SWITCH_ENV, "1") == "0":
        return Built(None, f"switched off ({SWITCH_ENV}=0)")
    cc = shutil.which("cc") or shutil.which("gcc")
    include = _include_dir()
    if cc is None or include is None:
        return Built(None, "no C compiler" if cc is None else "no CUPTI headers (cupti.h)")
    key = hashlib.sha256(SOURCE.read_bytes() + include.encode() + cc.encode()).hexdigest()[:20]
    folder = cachepaths.cache_root() / "ledger" / key
    out = folder / "libkdledger.so"
    if out.is_file():
        return Built(str(out), "")
    folder.mkdir(parents=True, exist_ok=True)
    for d in (folder, folder.parent):  # the sandbox's uid reads it from a read-only bind
        d.chmod(0o755)
    tmp = folder / f".build-{os.getpid()}.so"
    cmd = [cc, "-O2", "-shared", "-fPIC", f"-I{include}", str(SOURCE), "-o", str(tmp), "-ldl"]
    done = subprocess.run([*cmd, "-lpthread"], capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        return Built(None, f"could not build it: {done.stderr.strip()[-300:]}")
    tmp.chmod(0o755)
    tmp.replace(out)
    return Built(str(out), "")


def cupti_candidates() -> list[str]:
    """The libcupti files the runner tries in turn: the one shipped with torch's CUDA first (its
    version matches the runtime), then Triton's, then the toolkit's."""
    found: list[str] = []
    for site in sys.path:
        found += sorted(glob.glob(os.path.join(site, "nvidia", "cu*", "lib", "libcupti.so*")))
        found += sorted(
            glob.glob(os.path.join(site, "nvidia", "cuda_cupti", "lib", "libcupti.so*"))
        )
    try:
        import triton

        nv = Path(triton.__file__).parent / "backends" / "nvidia" / "lib"
        found += sorted(str(p) for p in nv.glob("cupti*/libcupti.so*"))
    except ImportError:
        pass
    for root in (os.environ.get("CUDA_HOME", ""), "/usr/local/cuda"):
        if root:
            found += sorted(
                glob.glob(os.path.join(root, "extras", "CUPTI", "lib64", "libcupti.so*"))
            )
            found += sorted(glob.glob(os.path.join(root, "lib*", "libcupti.so*")))
    return list(dict.fromkeys(os.path.realpath(p) for p in found))


def runner_env(fd: int, lib: str) -> dict[str, str]:
    return {
        "CUDA_INJECTION64_PATH": lib,
        "KD_LEDGER_FD": str(fd),
        "KD_CUPTI_PATHS": ":".join(cupti_candidates()),
    }


@dataclass
class Entries:
    """What the ledger said since the last reading."""

    names: list[str] = field(default_factory=list)
    status: str | None = None  # "ok <libcupti>" or "off <reason>", once per runner
    graph: bool = False  # a CUDA graph was launched
    lost: bool = False  # the pipe was full: names were dropped
    unnamed: int = 0  # launches the driver gave no name for


class Reader:
    """The read end of one runner's ledger pipe (never blocks)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        os.set_blocking(fd, False)
        self._buf = b""

    def take(self) -> Entries:
        chunks = [self._buf]
        while True:
            try:
                chunk = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                break
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        data = b"".join(chunks)
        *lines, self._buf = data.split(b"\n")
        out = Entries()
        for raw in lines:
            line = raw.decode("utf-8", "replace")
            kind, _, rest = line.partition(" ")
            if kind == "k" and rest == "?":
                out.unnamed += 1
            elif kind == "k":
                out.names.append(rest)
            elif kind in ("ok", "off"):
                out.status = line
            elif kind == "graph":
                out.graph = True
            elif kind == "lost":
                out.lost = True
        return out

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.fd)


def refusal(entries: Entries, owns: Callable[[str], bool]) -> str | None:
    """Why the kernels launched break the rule that solve computes with its own kernels."""
    if entries.lost:
        return "solve launched more distinct kernels than the referee can follow"
    if entries.graph:
        return (
            "solve launched a CUDA graph, whose kernels the referee cannot see: where the problem "
            "asks for your own kernels, launch them directly"
        )
    for name in entries.names:
        if name in HARNESS or _FILL in name or owns(name):
            continue
        return (
            f"solve ran {describe(name)}, which is not one of your kernels (the referee saw it "
            "launched on the GPU): this problem must be computed by your own kernels "
            "(allocating scratch memory with torch.empty/zeros is allowed)"
        )
    return None


def describe(name: str) -> str:
    """A kernel's name as a learner can read it: demangled where c++filt is at hand, short."""
    text = name
    tool = shutil.which("c++filt")
    if tool and name.startswith("_Z"):
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            text = (
                subprocess.run(
                    [tool, name], capture_output=True, text=True, timeout=5
                ).stdout.strip()
                or name
            )
    if "at::native" in text or name.startswith("_ZN2at"):
        who = "torch's kernel"
    elif any(k in text.lower() for k in ("gemm", "cublas", "cutlass", "xmma", "nvjet")):
        who = "the cuBLAS kernel"
    else:
        who = "the kernel"
    return f"{who} {text[:160]}{'…' if len(text) > 160 else ''}"
