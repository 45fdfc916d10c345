"""What a Mojo submission may import and call: the static check the referee runs before the
compiler (``check``), and which GPU kernels are its own (``owner``).

A Mojo ``solve`` is host code in the judge's process: it may launch its kernels through
``DeviceContext`` and nothing else. Imports come from an allow-list (the GPU, memory, math and
small value types of the standard library, and the ``layout`` package's tensors); the standard
library's file, process, FFI and Python modules are refused, and so are the words that reach
past it (``external_call``, inline MLIR, host inline assembly, ``open``). The built library's
imported symbols are checked too (build/mojo_build.py), so what this check misses is still
refused at link level.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# Module prefixes a submission may import from ("std.gpu" covers std.gpu.host, std.gpu.memory...).
ALLOWED = (
    "std.gpu",
    "std.memory",
    "std.math",
    "std.bit",
    "std.utils",
    "std.builtin",
    "std.collections",
    "std.sys.info",
    "std.atomic",
    "std.os.atomic",
    "layout",
)
# Known modules refused with their reason; any other import outside ALLOWED is refused too.
DENIED = {
    "std.ffi": "calls into C libraries (external_call, DLHandle)",
    "std.os": "reaches the file system and other processes",
    "std.pathlib": "reaches the file system",
    "std.subprocess": "starts processes",
    "std.python": "runs Python code",
    "std.sys": "reaches the process (exit, ffi, environment)",
    "std.algorithm": "its library functions would do the work; launch your own kernels",
    "std.benchmark": "times code itself; the judge times solve",
    "buffer": "its library functions would do the work; launch your own kernels",
}
# Names a submission may not use anywhere, with the reason.
WORDS = {
    "external_call": "calls into C libraries",
    "DLHandle": "loads a C library",
    "OwnedDLHandle": "loads a C library",
    "__mlir_op": "inline MLIR can call anything",
    "__mlir_type": "inline MLIR can call anything",
    "__mlir_attr": "inline MLIR can call anything",
    "inlined_assembly": "assembly on the host can make system calls",
    "open": "reads or writes files",
    "Python": "runs Python code",
    "_get_global_or_null": "keeps state across calls of solve",
    "_get_global": "keeps state across calls of solve",
}
_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import\b|import\s+([\w.]+(?:\s*,\s*[\w.]+)*))")
_WORD = re.compile(r"[A-Za-z_]\w*")
_STRING = re.compile(
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''
)
_FUNCTION = re.compile(r"^\s*(?:fn|def)\s+([A-Za-z_]\w*)", re.MULTILINE)
RESERVED = "kerneldojo_"  # the judge's entry (mojo_build.py) exports kerneldojo_solve
MODULE = "solution"  # the file the judge builds is solution.mojo: its kernels are solution_*


def code_only(source: str) -> str:
    """``source`` with string literals emptied and comments removed (line numbers kept)."""
    source = _STRING.sub(lambda m: '""' + "\n" * m.group(0).count("\n"), source)
    return "\n".join(line.split("#", 1)[0] for line in source.splitlines())


def _full(module: str) -> str:
    """``gpu.host`` as ``std.gpu.host``: Mojo 0.26 still finds the standard library's modules
    unqualified (with a deprecation warning)."""
    top = module.split(".", 1)[0]
    if top in {p.split(".")[1] for p in ALLOWED + tuple(DENIED) if p.startswith("std.")}:
        return "std." + module
    return module


def _under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def import_refusal(module: str) -> str | None:
    full = _full(module)
    if any(_under(full, p) for p in ALLOWED):
        return None
    for prefix, why in DENIED.items():
        if _under(full, prefix):
            return f"import of {module}: it {why}"
    return (
        f"import of {module}: a Mojo solve may import only "
        f"{', '.join(ALLOWED)} (its kernels and DeviceContext)"
    )


def check(source: str) -> str | None:
    """Why the source is refused (with its line), or None."""
    code = code_only(source)
    for no, line in enumerate(code.splitlines(), 1):
        m = _IMPORT.match(line)
        if m:
            modules = [m.group(1)] if m.group(1) else re.split(r"\s*,\s*", m.group(2))
            for module in modules:
                if module.startswith("."):
                    return f"line {no}: relative imports are not allowed"
                why = import_refusal(module)
                if why:
                    return f"line {no}: {why}"
        for word in _WORD.findall(line):
            if word in WORDS:
                return f"line {no}: {word} is not allowed: it {WORDS[word]}"
            if word.startswith(RESERVED):
                return f"line {no}: names starting with {RESERVED} are the judge's"
    return None


def defined_functions(source: str) -> frozenset[str]:
    return frozenset(_FUNCTION.findall(code_only(source)))


def owner(source: str) -> Callable[[str], bool]:
    """Mojo names a kernel ``<module>_<function>_<argument types>_<hash>``
    (``solution_add_kernel_UnsafeP6A6AoA6A6A_446ef7ff5fb22ca9``, read from ``mojo build
    --emit asm``): the submission's are ``solution_<f>_...`` for a function ``f`` its source
    defines. The standard library's kernels are ``std_...``, never the submission's."""
    own = sorted(defined_functions(source), key=len, reverse=True)

    def owns(name: str) -> bool:
        return any(name.startswith(f"{MODULE}_{f}_") for f in own)

    return owns
