"""Helion's own static rule (after the shared policy): what a ``@helion.kernel`` may be given,
and where torch may compute.

A Helion kernel is a Python function whose ``for tile in hl.tile(...)`` (or ``hl.grid``) loops
are device code: the torch calls in them (``torch.exp(row)``, ``x[tile] + y[tile]``) are the
DSL, compiled into one Triton kernel. Everything outside those loops, in the kernel and in the
rest of the file, is host code that runs as torch on the judge's tensors, so there torch may
only allocate and reshape (``torch.empty_like``, ``x.size(0)``) on the kernel track: a
``torch.softmax`` there would do the work. The dispatch rule (sandbox/rules.py) and the GPU's
kernel ledger refuse it at run time too; this check names the line before anything runs.

The judge does not autotune (docs/languages.md, Helion): a kernel gets one ``config=`` (or a
``configs=`` list of one). Without one Helion would take its default config, which has block
size 1 where it cannot ask a GPU: a CPU grading of a vector add ran one element per program and
timed out. Keywords that reach Helion's
settings beyond the few listed here (reference mode, another backend, the autotuner's
callbacks, log files) are refused.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from judge.sandbox.rules import ALLOWED_OPS

# What a learner may set on @helion.kernel(...): the config, and settings that change the
# generated kernel only.
KERNEL_KEYWORDS = frozenset({"config", "configs", "static_shapes", "dot_precision", "index_dtype"})
_NO_TUNING = (
    "the judge does not autotune Helion kernels: give one helion.Config(...) (autotune on your "
    "own GPU and paste the config Helion prints)"
)
_NO_CONFIG = (
    "give each Helion kernel its config: @helion.kernel(config=helion.Config(block_sizes=[...])). "
    "The judge does not autotune, and Helion's default config (block size 1 where it cannot ask a "
    "GPU) runs a CPU grading one element at a time"
)
# torch calls host code may make: allocation, views and plain values.
_HOST_TORCH = ALLOWED_OPS | {"Size", "device", "dtype", "finfo", "iinfo", "is_tensor", "numel"}
_DEVICE_LOOPS = frozenset({"tile", "grid"})


@dataclass(frozen=True)
class HelionViolation:
    line: int
    code: str
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.code}\n{self.reason}"


class _Names:
    """What the file's imports bind: ``helion``, ``helion.language`` and ``torch`` aliases."""

    def __init__(self, tree: ast.Module) -> None:
        self.helion: set[str] = set()
        self.hl: set[str] = set()
        self.torch: set[str] = set()
        self.kernel: set[str] = set()  # from helion import kernel (or jit)
        self.torch_funcs: dict[str, str] = {}  # from torch import exp -> "exp"
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    bound = a.asname or a.name.split(".")[0]
                    if a.name == "helion.language" and a.asname:
                        self.hl.add(a.asname)
                    elif a.name.split(".")[0] == "helion":
                        self.helion.add(bound)
                    elif a.name.split(".")[0] == "torch" and (
                        a.asname is None or a.name == "torch"
                    ):
                        self.torch.add(bound)
            elif isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    bound = a.asname or a.name
                    if node.module == "helion" and a.name == "language":
                        self.hl.add(bound)
                    elif node.module == "helion" and a.name in ("kernel", "jit"):
                        self.kernel.add(bound)
                    elif node.module == "torch":
                        self.torch_funcs[bound] = a.name

    def is_kernel_decorator(self, node: ast.expr) -> bool:
        f = node.func if isinstance(node, ast.Call) else node
        if isinstance(f, ast.Name):
            return f.id in self.kernel
        return (
            isinstance(f, ast.Attribute)
            and f.attr in ("kernel", "jit")
            and isinstance(f.value, ast.Name)
            and f.value.id in self.helion
        )

    def is_device_loop(self, loop: ast.For) -> bool:
        it = loop.iter
        return (
            isinstance(it, ast.Call)
            and isinstance(it.func, ast.Attribute)
            and it.func.attr in _DEVICE_LOOPS
            and isinstance(it.func.value, ast.Name)
            and it.func.value.id in self.hl
        )

    def torch_call(self, node: ast.Call) -> str | None:
        """``X`` for a call of ``torch.X`` (or of ``X`` imported from torch), else None."""
        f = node.func
        if isinstance(f, ast.Name):
            return self.torch_funcs.get(f.id)
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
            return f.attr if f.value.id in self.torch else None
        return None


def check(source: str, *, library_rule: bool = True) -> HelionViolation | None:
    """The first violation of Helion's rule in ``source`` (None: none, or not valid Python).
    Without the library rule (a problem that allows library compute), torch may compute
    anywhere; the kernels' settings are checked all the same."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    lines = source.splitlines()
    names = _Names(tree)

    def flag(node: ast.AST, reason: str) -> HelionViolation:
        line = getattr(node, "lineno", 1)
        code = lines[line - 1].strip() if 0 < line <= len(lines) else ""
        return HelionViolation(line, code, reason)

    device: set[ast.AST] = set()  # every node inside a kernel's hl.tile/hl.grid loop
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        kernels = [d for d in fn.decorator_list if names.is_kernel_decorator(d)]
        for deco in kernels:
            if not isinstance(deco, ast.Call):
                return flag(deco, _NO_CONFIG)
            if (bad := _keywords(deco)) is not None:
                return flag(deco, bad)
        if kernels:
            for loop in ast.walk(fn):
                if isinstance(loop, ast.For) and names.is_device_loop(loop):
                    for stmt in loop.body + loop.orelse:
                        device.update(ast.walk(stmt))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node not in device:
            if names.is_kernel_decorator(node) and (bad := _keywords(node)) is not None:
                return flag(node, bad)
            op = names.torch_call(node) if library_rule else None
            if op is not None and op not in _HOST_TORCH:
                return flag(
                    node,
                    f"`torch.{op}` computes outside a Helion device loop: on the kernel track, "
                    "torch computes only inside a kernel's `for tile in hl.tile(...)` loop "
                    "(host code may allocate with torch.empty/zeros and read shapes)",
                )
    return None


def _keywords(call: ast.Call) -> str | None:
    """Why ``@helion.kernel(...)``'s arguments are refused, or None."""
    if call.args:
        return "pass helion.kernel's settings by keyword (config=helion.Config(...))"
    if not any(kw.arg in ("config", "configs") for kw in call.keywords):
        return _NO_CONFIG
    for kw in call.keywords:
        if kw.arg == "autotune_effort":
            value = kw.value
            if not (isinstance(value, ast.Constant) and value.value == "none"):
                return _NO_TUNING
        elif kw.arg is None or kw.arg not in KERNEL_KEYWORDS:
            shown = "**" if kw.arg is None else kw.arg
            allowed = ", ".join(sorted(KERNEL_KEYWORDS | {"autotune_effort='none'"}))
            return f"`{shown}=` is not allowed on helion.kernel: the judge accepts {allowed}"
        elif kw.arg == "configs" and not (
            isinstance(kw.value, ast.List | ast.Tuple) and len(kw.value.elts) == 1
        ):
            return _NO_TUNING
    return None
