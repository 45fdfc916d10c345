"""Building Mojo submissions: ``mojo build`` in the sandbox into a shared library, then a
link-level check of what the library calls.

The learner's ``solution.mojo`` is not built alone: the judge writes ``kerneldojo_entry.mojo``
beside it, which imports ``solve`` and exports ``kerneldojo_solve`` with the same arguments plus
an error buffer. ``solve`` is a ``raises`` function (``DeviceContext()`` raises), and Mojo passes
an exported raising function's error through a hidden pointer argument: called from C with the
problem's arguments alone, a raised error wrote through a pointer that was never passed and the
runner died (a segfault). The entry catches the error and copies its text, so a CUDA error or a
launch the device refused reaches the learner as a ``runtime_error`` with Mojo's own message.

The compiler is the pinned ``mojo-compiler`` wheel (``MOJO_VERSION``); the library it builds names
the wheel's runtime libraries (``modular/lib``) in its RUNPATH, a path the sandboxed runner sees
at the same place (the Python environment is bound read-only), so nothing is set for them.
Successful builds are kept per source, problem, target and compiler (``cache_root()/mojo``): a
build costs ~4 s of a CPU core, and a resubmitted or regraded source is built once.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING

from judge import device
from judge.build import cachepaths
from judge.results import CompileResult
from judge.sandbox import bubblewrap

if TYPE_CHECKING:
    from judge.problem.schema import Problem

MOJO_VERSION = "0.26.2.0"  # requirements/worker-gpu.txt and pyproject's judge extra pin it
SOURCE = "solution.mojo"
ENTRY = "kerneldojo_entry.mojo"
LIBRARY = "solution.so"
ERROR_BYTES = 4096  # the entry's error buffer

MOJO_TYPES = {
    "float32": "Float32",
    "float16": "Float16",
    "bfloat16": "BFloat16",
    "float8_e4m3fn": "Float8_e4m3fn",
    "int8": "Int8",
    "uint8": "UInt8",
    "int32": "Int32",
    "uint32": "UInt32",
    "int64": "Int64",
}

# Symbols the built library may not import: what a kernel needs is the Mojo runtime (AsyncRT_*,
# KGEN_CompilerRT_*) and a little of libc (memcpy, print's write); the rest reaches the file
# system, the network, other processes or other libraries.
_FORBIDDEN = re.compile(
    r"^(open|open64|openat|openat64|fopen|fopen64|freopen|creat|mkdir|mkdirat|rmdir|unlink|"
    r"unlinkat|rename|renameat|link|symlink|chdir|chmod|fchmod|chown|truncate|ftruncate|"
    r"__xstat|__lxstat|__fxstat|stat|lstat|fstat|statx|opendir|readdir|read|pread|pread64|"
    r"readlink|getenv|secure_getenv|socket|connect|bind|listen|accept|sendto|recvfrom|"
    r"dlopen|dlsym|dlvsym|dlmopen|fork|vfork|execv|execve|execvp|execl|execlp|system|popen|"
    r"posix_spawn|posix_spawnp|kill|ptrace|syscall|prctl|clone|clone3|mmap|mprotect|"
    r"process_vm_readv|process_vm_writev|cu[A-Z]\w*|cuda\w*|cublas\w*|cudnn\w*)$"
)


def package_root() -> Path | None:
    """The installed wheel's ``modular`` folder (``bin/mojo``, ``lib/*.so``, ``lib/mojo``)."""
    spec = importlib.util.find_spec("mojo")  # a namespace package: no __init__.py, no origin
    for folder in spec.submodule_search_locations or () if spec is not None else ():
        root = Path(folder).resolve().parent / "modular"
        if (root / "bin" / "mojo").is_file():
            return root
    return None


def target() -> str:
    """The GPU the library is built for: this worker's, else Hopper's (a CPU worker only checks
    that the source compiles for a GPU)."""
    major, minor = device.compute_capability() or (9, 0)
    return f"sm_{major}{minor}"


def mojo_type(dtype: str) -> str:
    return MOJO_TYPES[dtype]


# Mojo's keywords: an argument so named (reduction's ``out``) gets a trailing underscore. solve is
# called by position, so the names are the learner's to choose.
KEYWORDS = frozenset(
    [
        "out",
        "mut",
        "ref",
        "var",
        "fn",
        "def",
        "struct",
        "trait",
        "in",
        "inout",
        "owned",
        "read",
        "deinit",
        "comptime",
        "alias",
        "raises",
        "return",
        "if",
        "elif",
        "else",
        "for",
        "while",
        "and",
        "or",
        "not",
        "is",
        "import",
        "from",
        "with",
        "as",
        "pass",
        "try",
        "except",
        "finally",
        "raise",
        "break",
        "continue",
        "True",
        "False",
        "None",
        "self",
        "Self",
        "lambda",
    ]
)


def mojo_name(name: str) -> str:
    return f"{name}_" if name in KEYWORDS else name


def param(name: str, dtype: str | None) -> str:
    """One argument as Mojo declares it: a device pointer, or an Int32 size."""
    name = mojo_name(name)
    if dtype is None:
        return f"{name}: Int32"
    return f"{name}: UnsafePointer[{mojo_type(dtype)}, MutAnyOrigin]"


def entry_source(problem: Problem) -> str:
    """``kerneldojo_entry.mojo``: ``solve`` called with the problem's arguments, its error caught."""
    params = [param(a.name, a.dtype if a.is_tensor else None) for a in problem.args]
    names = ", ".join(mojo_name(a.name) for a in problem.args)
    decl = ",\n    ".join([*params, "err: UnsafePointer[UInt8, MutAnyOrigin]", "err_cap: Int"])
    return f"""from solution import solve


@export
def kerneldojo_solve(
    {decl},
) -> Int32:
    try:
        solve({names})
    except e:
        var text = String(e)
        var n = min(len(text.as_bytes()), err_cap - 1)
        for i in range(n):
            err[i] = text.as_bytes()[i]
        err[n] = 0
        return 1
    return 0
"""


def _env(root: Path) -> dict[str, str]:
    """What the ``mojo`` driver needs (the wheel's own launcher sets the same)."""
    return {
        "MODULAR_MAX_PACKAGE_ROOT": str(root),
        "MODULAR_MOJO_MAX_PACKAGE_ROOT": str(root),
        "MODULAR_MOJO_MAX_DRIVER_PATH": str(root / "bin" / "mojo"),
        "MODULAR_MOJO_MAX_IMPORT_PATH": str(root / "lib" / "mojo"),
        "MODULAR_HOME": "/tmp/.modular",
    }


def _key(source: str, entry: str, arch: str) -> str:
    h = hashlib.sha256()
    for part in (MOJO_VERSION, arch, entry, source):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:40]


def compile_mojo(
    source: str, workdir: Path, problem: Problem, timeout_s: float
) -> tuple[CompileResult, Path | None, str | None]:
    """(result, library path, why the library's calls are refused) for ``source``."""
    root = package_root()
    if root is None:
        return (
            CompileResult(False, f"mojo-compiler {MOJO_VERSION} is not installed here"),
            None,
            None,
        )
    (workdir / SOURCE).write_text(source)
    entry = entry_source(problem)
    (workdir / ENTRY).write_text(entry)
    lib = workdir / LIBRARY
    arch = target()
    cached = cachepaths.cache_root() / "mojo" / _key(source, entry, arch)
    if (cached / LIBRARY).is_file():
        shutil.copyfile(cached / LIBRARY, lib)
        log = (cached / "log.txt").read_text() if (cached / "log.txt").is_file() else ""
        return CompileResult(True, log, 0.0), lib, forbidden_symbols(lib)
    sw = bubblewrap.SANDBOX_WORKDIR if bubblewrap.mode() != "off" else str(workdir)
    argv = [str(root / "bin" / "mojo"), "build", "--target-accelerator", arch]
    argv += ["--emit", "shared-lib", "-o", f"{sw}/{LIBRARY}", f"{sw}/{ENTRY}"]
    policy = bubblewrap.Policy(
        workdir=workdir,
        env=_env(root),
        limits=bubblewrap.Limits(cpu_s=int(timeout_s) + 5, file_mb=256),
    )
    t0 = time.monotonic()
    code, output, timed_out = bubblewrap.run(argv, policy, max(timeout_s, 1.0))
    seconds = time.monotonic() - t0
    log = clean_log(output, sw)
    if timed_out:
        return (
            CompileResult(False, f"compilation took longer than {timeout_s:.0f} s\n{log}", seconds),
            None,
            None,
        )
    if code != 0 or not lib.is_file():
        return CompileResult(False, explain(log) or f"mojo exited with {code}", seconds), None, None
    violation = forbidden_symbols(lib)
    if violation is None:
        _store(cached, lib, log)
    return CompileResult(True, log, seconds), lib, violation


def _store(folder: Path, lib: Path, log: str) -> None:
    """Keep a build for the next grading of the same source (best effort: only speed)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{os.getpid()}.so"
        shutil.copyfile(lib, tmp)
        (folder / "log.txt").write_text(log)
        tmp.replace(folder / LIBRARY)
    except OSError:
        pass


_NOISE = re.compile(r"^Failed to initialize Crashpad.*$\n?", re.MULTILINE)
_INCLUDED = re.compile(rf"^Included from \S*{ENTRY}:\d+:\n", re.MULTILINE)
# A note pointing at the entry's first line (the implicit import), with its source and caret.
_ENTRY_NOTE = re.compile(rf"^\S*{ENTRY}:1:1: note: .*\n.*\n.*\^.*\n?", re.MULTILINE)


def clean_log(text: str, sw: str) -> str:
    """The compiler's output as the learner should read it: paths relative to their file, the
    judge's entry file out of sight."""
    text = text.replace(f"{sw}/", "")
    text = _NOISE.sub("", text)
    text = _INCLUDED.sub("", text)
    return _ENTRY_NOTE.sub("", text)


# LeetGPU's Mojo starter was written for an older Mojo: its imports and pointer types fail here.
_HINTS = (
    (
        re.compile(r"unable to locate module 'id'|unable to locate module 'gpu'"),
        "this judge runs Mojo 0.26.2: import from std.gpu (from std.gpu import block_idx, "
        "block_dim, thread_idx; from std.gpu.host import DeviceContext)",
    ),
    (
        re.compile(r"'UnsafePointer' failed to infer parameter 'origin'"),
        "this judge runs Mojo 0.26.2: pointers carry an origin, UnsafePointer[Float32, "
        "MutAnyOrigin]",
    ),
)
_OWN_ERROR = re.compile(rf"^{SOURCE}:\d+:\d+: error", re.MULTILINE)
# An error the entry reports, with its source line and caret.
_ENTRY_ERROR = re.compile(rf"^{ENTRY}:\d+:\d+: error: .*\n.*\n.*\^.*\n?", re.MULTILINE)
_SIGNATURE = (
    "solve's arguments must be the problem's, in order, with the types of the starter "
    "(device pointers as UnsafePointer[T, MutAnyOrigin], sizes as Int32)"
)


def explain(log: str) -> str:
    """The log with a first line saying what to change, where the error is a known one. The
    entry's errors are consequences of the learner's own, when there are any; alone, they say
    that ``solve`` does not take the problem's arguments."""
    hints = [h for pattern, h in _HINTS if pattern.search(log)]
    if _OWN_ERROR.search(log):
        log = _ENTRY_ERROR.sub("", log)
    elif f"{ENTRY}:" in log:
        hints.append(_SIGNATURE)
    return "".join(f"note: {h}\n" for h in hints) + log


def forbidden_symbols(lib: Path) -> str | None:
    """Why the library's imported symbols are refused, or None."""
    nm = shutil.which("nm")
    if nm is None:
        return None
    out = subprocess.run(
        [nm, "-D", "--undefined-only", str(lib)], capture_output=True, text=True, timeout=60
    ).stdout
    calls = sorted(
        {
            sym
            for line in out.splitlines()
            if line.split() and _FORBIDDEN.match(sym := line.split()[-1].split("@")[0])
        }
    )
    if calls:
        return (
            f"the library calls {', '.join(calls)}: a Mojo solve may only launch its kernels "
            "through DeviceContext (no file, network, process, driver or library calls)"
        )
    return None
