"""Pallas' own rule: only ``pallas_call`` kernels compute; ``solve`` around them only plumbs.

JAX computes with any ``jnp`` function, operator or method on an array, so a ``solve`` that
returned ``a + b`` would be graded as a kernel without containing one. The rule has two halves:

* **In the referee, on the source** (``check_source``): calls of JAX's compute modules
  (``jax.numpy``, ``jax.lax``, ``jax.nn``...) outside kernel code are refused with the line, before
  any process starts, except shape plumbing and constants (``jnp.reshape``, ``jnp.zeros``,
  ``jnp.float32``). Kernel code is every function given to ``pl.pallas_call`` (directly or
  through ``functools.partial``), what is defined inside it, and the learner's functions it uses.
  Lambdas are index maps and are not checked here. Host callbacks, JAX's configuration, DLPack,
  FFI and the like are refused anywhere: they run host code per call or reach the judge's data.
* **In the runner, on what JAX will run** (``check_jaxpr``): the traced program of ``solve``,
  before it is compiled. Every value derived from an input, or from a kernel's output, may only be
  given to a ``pallas_call``, reshaped, or returned; any other operation on it (an operator, a
  method such as ``x.sum()``, a ``jnp`` function reached in a way the source check cannot see) is
  refused. Values that do not depend on the inputs (``jnp.zeros`` for an accumulator, an
  ``iota``) may be computed: they cannot carry the answer. This is the sound half: it sees every
  operation, however it was written. Like the library rule (rules.py), it runs in the
  submission's process; the static half and the sandbox stand in front of it.
"""

from __future__ import annotations

import ast
from typing import Any

from judge.languages.python import SOURCE

# Outside kernels: calls of these modules compute, except the plumbing below.
_COMPUTE_MODULES = (
    "jax.numpy",
    "jax.lax",
    "jax.nn",
    "jax.scipy",
    "jax.image",
    "jax.random",
    "jax.ops",
    "jax.vmap",
    "jax.pmap",
    "jax.grad",
    "jax.value_and_grad",
    "jax.jvp",
    "jax.vjp",
)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_PLUMBING = _words(
    "reshape ravel squeeze expand_dims shape ndim size dtype finfo iinfo result_type "
    "promote_types issubdtype can_cast zeros ones full empty zeros_like ones_like full_like "
    "empty_like arange"
)
_REFUSED = {
    "jax.pure_callback jax.experimental.io_callback jax.debug.callback "
    "jax.experimental.host_callback": "it runs host Python on every call, beside your kernel",
    "jax.config jax.experimental.compilation_cache": "it changes how the judge's JAX runs",
    "jax.dlpack jax.device_put jax.device_get jax.experimental.multihost_utils": (
        "the judge moves the data: solve gets the inputs as JAX arrays and returns its outputs"
    ),
    "jax.ffi jax.extend jax.experimental.jax2tf jax.export jax.experimental.serialize_executable "
    "jaxlib": "it runs native or foreign code outside your Pallas kernels",
    "jax.profiler jax.distributed jax.monitoring": "it reaches files or the network",
}
_REFUSED_PATHS = {p: why for paths, why in _REFUSED.items() for p in paths.split()}
_KERNEL_ENTRIES = ("jax.experimental.pallas.pallas_call",)
_PARTIAL = ("functools.partial",)
_KERNEL_WHY = (
    "only Pallas kernels compute in this language: outside a kernel, solve may reshape, make "
    "constants and call pallas_call; do this work inside your kernel"
)


class Violation:
    def __init__(self, line: int, code: str, reason: str) -> None:
        self.line, self.code, self.reason = line, code, reason

    def __str__(self) -> str:
        return f"line {self.line}: {self.code}\n{self.reason}" if self.line else self.reason


# -- the source ---------------------------------------------------------------------------------
def check_source(source: str) -> Violation | None:
    """The first violation of the rule in ``source`` (None: none, or not valid Python)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    lines = source.splitlines()
    aliases = _aliases(tree)

    def path(node: ast.AST) -> str | None:
        if isinstance(node, ast.Name):
            return aliases.get(node.id)
        if isinstance(node, ast.Attribute):
            base = path(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    def flag(node: ast.AST, what: str, why: str) -> Violation:
        line = getattr(node, "lineno", 0)
        code = lines[line - 1].strip() if 0 < line <= len(lines) else ""
        return Violation(line, code, f"`{what}` is not allowed here: {why}.")

    kernels = _kernel_functions(tree, path)
    found: list[Violation] = []
    for node in ast.walk(tree):
        used: list[str] = []
        if isinstance(node, ast.Name | ast.Attribute):
            used = [p] if (p := path(node)) is not None else []
        elif isinstance(node, ast.Import):
            used = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            used = [f"{node.module}.{a.name}" for a in node.names]
        for p in used:
            for refused, why in _REFUSED_PATHS.items():
                if p == refused or p.startswith(refused + "."):
                    found.append(flag(node, p, why))
        if isinstance(node, ast.Call) and node not in kernels:
            f = path(node.func)
            if f is not None and _computes(f):
                found.append(flag(node, f, _KERNEL_WHY))
    found.sort(key=lambda v: v.line)
    return found[0] if found else None


def _aliases(tree: ast.Module) -> dict[str, str]:
    """Names bound to imported objects (and plain ``x = jnp`` copies) -> dotted paths."""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                out[a.asname or a.name] = f"{node.module}.{a.name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            t, v = node.targets[0], node.value
            if isinstance(t, ast.Name) and isinstance(v, ast.Name | ast.Attribute):
                parts: list[str] = []
                while isinstance(v, ast.Attribute):
                    parts.insert(0, v.attr)
                    v = v.value
                if isinstance(v, ast.Name) and v.id in out:
                    out[t.id] = ".".join([out[v.id], *parts])
    return out


def _computes(path: str) -> bool:
    for module in _COMPUTE_MODULES:
        if path == module or path.startswith(module + "."):
            leaf = path.rpartition(".")[2]
            return leaf not in _PLUMBING and leaf not in _DTYPE_NAMES
    return False


# Dtypes and constants: a value, or a cast when called (which the traced program's check sees).
_DTYPE_NAMES = _words(
    "bool_ int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 bfloat16 float32 "
    "float64 inf nan pi e newaxis"
)


def _kernel_functions(tree: ast.Module, path: Any) -> set[ast.AST]:
    """Every node inside kernel code: functions given to pallas_call, the learner's functions
    they name (transitively), and every lambda (index maps)."""
    defs: dict[str, list[ast.AST]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            defs.setdefault(node.name, []).append(node)
    todo: list[str] = []
    roots: list[ast.AST] = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda)]
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and path(node.func) in _KERNEL_ENTRIES):
            continue
        first = node.args[0] if node.args else None
        first = next((k.value for k in node.keywords if k.arg == "kernel"), first)
        while isinstance(first, ast.Call) and path(first.func) in _PARTIAL and first.args:
            first = first.args[0]
        if isinstance(first, ast.Name):
            todo.append(first.id)
        elif isinstance(first, ast.Lambda):  # lambda refs: kernel(refs, n=n)
            todo += [n.id for n in ast.walk(first) if isinstance(n, ast.Name)]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in defs:
            continue
        seen.add(name)
        for fn in defs[name]:
            roots.append(fn)
            todo += [n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id in defs]
    inside: set[ast.AST] = set()
    for r in roots:
        inside.update(ast.walk(r))
    return inside


# -- the traced program -------------------------------------------------------------------------
_KERNELS = frozenset({"pallas_call", "core_map"})
# Operations that only give an array another shape or name: allowed on the data.
_RESHAPES = frozenset({"reshape", "squeeze", "expand_dims", "copy", "copy_p"})
# Host code on every call: refused outside kernels whatever they are given.
_CALLBACKS = frozenset({"pure_callback", "io_callback"})


def check_jaxpr(closed: Any, interpret: bool) -> str | None:
    """The first violation in ``closed`` (a ClosedJaxpr of solve, its inputs its invars), as a
    message; None if every operation on the data is a kernel, a reshape or a call into one.
    ``interpret``: the mode every pallas_call must run in (the judge's: True on the CPU)."""
    jaxpr = closed.jaxpr
    return _walk(jaxpr, {id(v) for v in jaxpr.invars}, interpret)


def _walk(jaxpr: Any, data: set[int], interpret: bool) -> str | None:
    for eqn in jaxpr.eqns:
        name = eqn.primitive.name
        uses = [v for v in eqn.invars if id(v) in data]
        if name in _KERNELS:
            mode = eqn.params.get("interpret", interpret)
            if name == "pallas_call" and bool(mode) != interpret:
                return (
                    "pallas_call's interpret mode is the judge's to choose (it interprets on the "
                    "CPU and compiles on a GPU): leave interpret= out"
                )
            data.update(id(v) for v in eqn.outvars)
            continue
        if name in _CALLBACKS:
            return f"{_where(eqn)}`{name}` runs host code on every call: compute in your kernel"
        if not uses:
            continue  # constants: they cannot carry the answer
        sub = _call_body(eqn)
        if sub is not None:  # a nested jit or call: check what it runs
            inner = {
                id(iv) for iv, ov in zip(sub.invars, eqn.invars, strict=False) if id(ov) in data
            }
            why = _walk(sub, inner, interpret)
            if why is not None:
                return why
            data.update(
                id(ov) for ov, iv in zip(eqn.outvars, sub.outvars, strict=False) if id(iv) in inner
            )
            continue
        if name in _RESHAPES or _reshapes(eqn):
            data.update(id(v) for v in eqn.outvars)
            continue
        return (
            f"{_where(eqn)}`{name}` computes on your data outside a Pallas kernel. "
            f"{_KERNEL_WHY[0].upper()}{_KERNEL_WHY[1:]} (a kernel's output may be returned or "
            "reshaped, not combined further outside one)."
        )
    return None


def _call_body(eqn: Any) -> Any:
    """The jaxpr a call-like equation (jit, closed_call, custom_jvp...) runs, if it is one."""
    if eqn.primitive.name not in ("jit", "pjit", "closed_call", "core_call", "remat", "checkpoint"):
        return None
    for key in ("jaxpr", "call_jaxpr"):
        sub = eqn.params.get(key)
        if sub is not None:
            return getattr(sub, "jaxpr", sub)
    return None


def _reshapes(eqn: Any) -> bool:
    """An equation that moves no element: a broadcast adding unit axes, a cast to the same type."""
    name = eqn.primitive.name
    src, dst = eqn.invars[0].aval, eqn.outvars[0].aval
    if name == "broadcast_in_dim":
        return bool(src.size == dst.size)
    if name == "convert_element_type":
        return bool(src.dtype == dst.dtype)
    return False


def _where(eqn: Any) -> str:
    """ "line N: " of the learner's file where JAX recorded ``eqn`` being made, if it did."""
    try:
        from jax._src import source_info_util

        frames = list(source_info_util.user_frames(eqn.source_info.traceback))
    except Exception:  # the location is a courtesy; JAX's internals move between versions
        return ""
    for frame in frames:
        if str(frame.file_name).endswith(SOURCE):
            return f"line {frame.start_line}: "
    return ""
