"""Static policy for Python submissions, checked by the referee before anything runs.

A submission runs in the runner's process, beside the harness that times it (CUDA events, the
library rule, the control pipe), so any guard inside that process is the submission's to remove
(SECURITY.md). The sandbox and the referee stay the boundary; this check of the source's syntax
tree, run in the referee, turns the direct ways of patching or inspecting the harness into a
``rejected`` verdict with a line and a reason before any runner starts.

Every use of an imported module is resolved to a dotted path (``torch.cuda.Event.elapsed_time``)
through ``import ... as``, ``from ... import``, plain aliases (``t = torch``) and
``getattr(x, "literal")``, and a deny-list of capabilities is checked against those paths. A
deny-list holds only if every use of a library shows as such a path, so what the paths cannot
follow is refused too:

* dunder attributes and names (``__dict__``, ``__globals__``, ``__class__``, ``__subclasses__``,
  ``__builtins__``, ``__import__``...), ``getattr``/``setattr``/``delattr`` with a computed name
  or as values, ``type`` as a value, ``.mro()``, ``eval``/``exec``/``compile``,
  ``globals``/``locals``/``vars``/``dir``, private names (``_x``) of libraries, and the modules
  that find objects by name (importlib, pickle, inspect, gc, operator.attrgetter...);
* a library's modules, classes and functions may be called, read, compared, annotated with and
  given to ``isinstance``/``print``-like builtins, but not stored in containers or attributes,
  returned, or passed to any function (dtypes and constants may: ``tl.float16``, ``math.pi``);
* nothing reachable from an imported module, and no object a library call returned, is
  assigned, augmented, deleted or ``setattr``'d; the learner's own objects (``self.x``) are theirs.

Decisions: ``__name__`` may be read, and ``if __name__ == "__main__":`` blocks are not checked
(the runner imports the file as ``solution``: they never run). ``os`` is limited to reading the
environment and ``os.path``'s string helpers; ``sys`` to a few constants, stdout/stderr and
``sys.exit`` (a failed call, like ``raise SystemExit``). ``time``, ``functools``, ``math``,
``typing``, ``dataclasses`` and the rest of the pure standard library are allowed; threads,
processes, signals, sockets, files and native code are not (one reason each in the tables).
Subclassing a library class (``torch.cuda.Event``) is allowed: it changes nothing the harness
uses. ``triton.testing.do_bench`` is allowed: harmless, though the judge times ``solve`` itself.
Where the problem forbids library compute, NumPy is limited to dtypes and constants, and host
views of tensor data (``.numpy()``, ``.tolist()``, storages, ``torch.from_numpy``) are refused:
on the CPU they compute beside the library rule, which only sees torch operators.

Limits: names are tracked per file, not per scope; what a library call returns is treated as
the library's (it may not be changed or have private names read) but is not resolved to a path,
so a library function that returned a module found by a string would carry it past the
deny-list (those known are refused: ``importlib``, ``torch.get_device_module``...). The check
is a guard rail in front of the sandbox and the referee, not a proof.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the languages import this module: the registry is read when first checked
    from judge.languages.base import Language


@dataclass(frozen=True)
class Violation:
    line: int
    code: str  # the offending source line, stripped
    reason: str  # one sentence a learner can act on

    def __str__(self) -> str:
        return f"line {self.line}: {self.code}\n{self.reason}"


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


def _reasons(table: dict[str, str]) -> dict[str, str]:
    """{"a b c": why} -> {"a": why, "b": why, "c": why}"""
    return {name: why for names, why in table.items() for name in names.split()}


_NATIVE = "it runs native code outside your kernels and the judge's checks"
_LOADER = "it loads or runs code by name, which the judge cannot check"
_CONCURRENT = "work must run inside solve, on the calling thread, where the judge times it"
_NETWORK = "a submission has no network"
_FILES = "a submission does not read or write files"
_BY_NAME = "it looks objects up by name, which hides what is used: write the names out"
_COMPILE = "it computes with code a library generates instead of your kernel"
_EVAL = "it evaluates annotations as code"

DENIED_MODULES = _reasons(
    {
        "ctypes _ctypes cffi": _NATIVE,
        "importlib imp pkgutil runpy zipimport pydoc code codeop builtins site": _LOADER,
        "gc inspect dis traceback tracemalloc linecache": "it inspects the running program (frames, objects, code), the judge's included",
        "threading _thread multiprocessing concurrent asyncio subprocess signal sched pty": _CONCURRENT,
        "atexit": "it runs code after grading has finished",
        "socket ssl select selectors socketserver http urllib ftplib smtplib imaplib poplib xmlrpc requests webbrowser": _NETWORK,
        "io pathlib shutil tempfile glob fileinput mmap fcntl zipfile tarfile sqlite3 dbm shelve tokenize": _FILES,
        "pickle _pickle marshal copyreg dill cloudpickle": "unpickling calls functions named in the data",
        "posix nt resource pwd grp spwd": "it reaches the operating system",
        "unittest": "unittest.mock patches objects at run time",
        "__main__ judge app worker solution": "the judge's own modules are off limits",
    }
)
# Paths refused in modules that are otherwise allowed (a prefix refuses what is under it); each
# language adds its libraries' (``Language.denied_paths``).
DENIED_PATHS = _reasons(
    {
        "torch.library torch.ops": "it registers, overrides or calls operators behind the library rule",
        "torch.overrides": "it intercepts torch functions, the judge's included",
        "torch.classes torch.utils.cpp_extension torch.cuda.cudart torch.cuda.CUDAPluggableAllocator torch.cuda.change_current_allocator torch.cuda.memory.CUDAPluggableAllocator torch.cuda.memory.change_current_allocator": _NATIVE,
        "torch.load torch.save torch.serialization torch.from_file torch.UntypedStorage.from_file torch.TypedStorage.from_file logging.FileHandler numpy.load numpy.save numpy.savez numpy.savez_compressed numpy.fromfile numpy.loadtxt numpy.savetxt numpy.genfromtxt numpy.memmap": _FILES,
        "torch.hub": "it downloads and runs code",
        "torch.package": _LOADER,
        "torch.jit torch.fx torch.export": _COMPILE,
        "torch.multiprocessing": _CONCURRENT,
        "torch.distributed logging.config logging.handlers": _NETWORK,
        "typing.get_type_hints typing.ForwardRef functools.singledispatch functools.singledispatchmethod": _EVAL,
        "operator.attrgetter operator.methodcaller string.Formatter torch.get_device_module": _BY_NAME,
    }
)
# Refused with the library rule only: on the framework track (PyTorch) torch.compile is the
# learner's to use, its kernels being the libraries' as every other torch op there is.
_LIBRARY_PATHS = ("torch.compile", "torch.compiler")
_HOST = "it lets the host read or compute on tensor data: compute in your kernel instead"
_HOST_PATHS = frozenset({"torch.from_numpy", "torch.frombuffer"})
_HOST_ATTRS = frozenset({"numpy", "tolist", "storage", "untyped_storage", "_typed_storage"})

_OS_ALLOWED = _set(
    "os.environ.get os.environ.items os.environ.keys os.environ.values os.environ.copy os.getenv "
    "os.cpu_count os.sep os.path.join os.path.basename os.path.dirname os.path.split "
    "os.path.splitext os.path.normpath"
)
_SYS_ALLOWED = _set("sys.maxsize sys.version sys.platform sys.byteorder sys.exit")
_SYS_OPEN = _set("sys.float_info sys.int_info sys.version_info sys.stdout sys.stderr")
_NP_CONSTANTS = _set("numpy.pi numpy.e numpy.inf numpy.nan numpy.newaxis")
_NP_CALLABLE = _set("numpy.dtype numpy.finfo numpy.iinfo")
_OS_WHY = "of os, a submission may only read the environment (os.environ.get, os.getenv, os.environ[...]) and use os.path's string helpers"
_SYS_WHY = "of sys, a submission may read maxsize, float_info, version_info and platform, write to sys.stdout/stderr and call sys.exit"
_NP_WHY = "NumPy runs on the host: use only its dtypes and constants (np.float32, np.pi) and compute in your kernel"

# Values that may go anywhere: data, not modules, classes or functions to patch.
_DTYPE = re.compile(
    r"(b?float|u?int|complex|qu?int)\d*(_?[a-z0-9]+)?|half|double|long|short|bool_?|byte|ubyte"
    r"|single|c(float|double|half)|longlong|void"
)
# Modules whose dtypes (and, for NumPy's likes, constants such as np.inf) are plain values; each
# language adds its libraries' (``Language.value_modules``).
_DTYPE_MODULES = frozenset({"torch", "numpy"})
_NP_LEAVES = frozenset(p.rpartition(".")[2] for p in _NP_CONSTANTS)
_CONSTANTS = _NP_CONSTANTS | _SYS_ALLOWED | _SYS_OPEN | {"os.sep", "torch.contiguous_format"}

_BUILTINS = _reasons(
    {
        "eval exec compile": "it runs code the judge cannot check",
        "open": _FILES,
        "breakpoint input help": "a submission runs unattended",
        "globals locals vars dir": "it inspects namespaces, the judge's included: refer to names directly",
    }
)
_DYNAMIC = frozenset({"getattr", "setattr", "delattr", "type"})
_SINKS = _set("isinstance issubclass print repr str hasattr callable id hash")
_STRING_DUNDERS = frozenset({"__name__", "__qualname__", "__doc__", "__version__"})
_SUPER_DUNDERS = frozenset({"__init__", "__new__", "__post_init__", "__init_subclass__"})
_STORE_DUNDERS = frozenset({"__all__", "__slots__", "__version__"})
_MUTATORS = _set("update clear pop popitem setdefault append extend insert remove discard add sort")
_COMPS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_THROUGH: tuple[type[ast.AST], ...] = (ast.Subscript, ast.Starred, ast.Await, ast.NamedExpr)
_THROUGH += (ast.IfExp, ast.BoolOp, ast.Tuple, ast.List, ast.Set, ast.Dict, *_COMPS)
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_DUNDER_WHY = "dunder attributes and names reach into Python's internals (the judge's included): use the public API"
_MUTATE_WHY = "it changes an imported module or an object a library gave you: use libraries, do not modify them"
_ESCAPE_WHY = "a library's modules, classes and functions may be called or read where they are named, not stored, returned or passed to functions"
_PRIVATE_WHY = "names starting with _ are private to the library: use its public API"
_FREE = ("sink", "compare", "in", "inert", "test")  # contexts a container passes on to its items


def _dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


@dataclass(frozen=True)
class _Vocabulary:
    """The judge's own names joined with those every registered language declares (base.py)."""

    denied_paths: dict[str, str]
    value_modules: frozenset[str]
    function_modules: frozenset[str]
    constant_paths: tuple[re.Pattern[str], ...]
    host_attrs: frozenset[str]
    open_private: tuple[str, ...]


# The registry (languages/__init__.py) names itself here when it is imported, which is before
# this module can be used (it lives in the registry's package). It cannot be imported from here:
# the registry imports every language, and the Python ones import this module.
_registry: Callable[[], tuple[Language, ...]] | None = None


def use_registry(languages: Callable[[], tuple[Language, ...]]) -> None:
    """Join the vocabulary of every language ``languages()`` returns, read at each check."""
    global _registry
    _registry = languages


def _vocabulary() -> _Vocabulary:
    if _registry is None:  # only if this module were loaded outside its package
        raise RuntimeError("the static policy has no languages: import judge.languages first")
    return _collect(_registry())


@functools.cache  # keyed on the registry's tuple: a test that adds a language gets its own
def _collect(langs: tuple[Language, ...]) -> _Vocabulary:
    return _Vocabulary(
        denied_paths=DENIED_PATHS
        | {p: why for lang in langs for p, why in lang.denied_paths.items()},
        value_modules=_DTYPE_MODULES.union(*(lang.value_modules for lang in langs)),
        function_modules=frozenset[str]().union(*(lang.function_modules for lang in langs)),
        constant_paths=tuple(lang.constant_paths for lang in langs if lang.constant_paths),
        host_attrs=_HOST_ATTRS.union(*(lang.host_attrs for lang in langs)),
        open_private=tuple(p for lang in langs for p in lang.open_private),
    )


def _constant(path: str, vocab: _Vocabulary) -> bool:
    parent, _, leaf = path.rpartition(".")
    if path.split(".")[0] in ("math", "typing", "operator") or path in _CONSTANTS:
        return True
    if any(path.startswith(p + ".") for p in _SYS_OPEN):
        return True
    if parent in vocab.value_modules and (_DTYPE.fullmatch(leaf) or leaf in _NP_LEAVES):
        return True
    return any(pattern.fullmatch(path) for pattern in vocab.constant_paths)


def _main_guard(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and ast.unparse(node.test) == "__name__ == '__main__'"


def check_python(source: str, *, forbid_library_compute: bool = True) -> Violation | None:
    """The first violation of the policy in ``source`` (None: none, or not valid Python)."""
    found = find_violations(source, forbid_library_compute=forbid_library_compute)
    return found[0] if found else None


def find_violations(source: str, *, forbid_library_compute: bool = True) -> list[Violation]:
    """Every violation, in source order; a syntax error is the caller's to report."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    return _Checker(tree, source.splitlines(), forbid_library_compute).run()


class _Checker:
    def __init__(self, tree: ast.Module, lines: list[str], host_rules: bool) -> None:
        for stmt in tree.body:
            if isinstance(stmt, ast.If) and _main_guard(stmt):
                stmt.body = [ast.copy_location(ast.Pass(), stmt)]
        self.tree, self.lines, self.host_rules = tree, lines, host_rules
        self.vocab = _vocabulary()
        self.parents: dict[ast.AST, ast.AST] = {}
        self.inert: set[ast.AST] = set()  # annotations, except clauses, class bases
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
            roots: list[ast.AST | None] = []
            if isinstance(node, ast.arg | ast.AnnAssign):
                roots.append(node.annotation)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                roots.append(node.returns)
            elif isinstance(node, ast.ExceptHandler):
                roots.append(node.type)
            elif isinstance(node, ast.ClassDef):
                roots += [*node.bases, *node.keywords]
            for r in roots:
                self.inert.update(ast.walk(r) if r is not None else ())
        self.scopes: dict[ast.AST, tuple[set[str], set[str]]] = {}
        self.builtins: dict[ast.Name, bool] = {}
        self.aliases: dict[str, set[str]] = {}  # name -> dotted paths it may stand for
        self.tainted: set[str] = set()  # names that may hold a library's object
        self.tainted_attrs: set[str] = set()  # attribute names that may hold one
        self.found: list[tuple[tuple[int, int, int], Violation]] = []
        self._facts()

    # -- what names stand for -----------------------------------------------------------------
    def refs(self, node: ast.AST) -> set[str]:
        """Dotted paths of imported objects that ``node`` may be."""
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            return self.aliases.get(node.id, set())
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            if node.attr in _STRING_DUNDERS:
                return set()
            return {f"{p}.{node.attr}" for p in self.refs(node.value)}
        if isinstance(node, ast.Call):
            name = self._literal_name(node, "getattr")
            if name is not None:
                return {f"{p}.{name}" for p in self.refs(node.args[0])}
            if self._builtin_call(node, "type") and len(node.args) == 1:
                return {"type()"}
        return set()

    def foreign(self, node: ast.AST) -> bool:
        """May ``node`` be a library's object (a module, a class, a function, a call's result)?"""
        if self.refs(node):
            return True
        if isinstance(node, ast.Name):
            return node.id in self.tainted
        if isinstance(node, ast.Attribute):
            return node.attr in self.tainted_attrs or self.foreign(node.value)
        if isinstance(node, ast.Call):
            return self.foreign(node.func)
        if isinstance(node, _THROUGH):  # containers, conditionals, subscripts: any part
            return any(
                self.foreign(c) for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr)
            )
        return False

    def _taint(self, target: ast.AST, in_class: bool) -> bool:
        size = len(self.tainted) + len(self.tainted_attrs)
        if isinstance(target, ast.Name):
            self.tainted.add(target.id)
            if in_class:  # a class attribute, read back as self.x or Cls.x
                self.tainted_attrs.add(target.id)
        elif isinstance(target, ast.Attribute):
            self.tainted_attrs.add(target.attr)
        elif isinstance(target, ast.Subscript | ast.Starred):
            self._taint(target.value, in_class)
        elif isinstance(target, ast.Tuple | ast.List):
            for e in target.elts:
                self._taint(e, in_class)
        return len(self.tainted) + len(self.tainted_attrs) > size

    def _facts(self) -> None:
        binds: list[tuple[ast.AST, ast.AST, bool, bool]] = []  # target, value, alias?, in class?
        for node in ast.walk(self.tree):
            in_class = isinstance(self._scope_of(node), ast.ClassDef)
            if isinstance(node, ast.Import):
                for a in node.names:
                    name = a.asname or a.name.split(".")[0]
                    self.aliases.setdefault(name, set()).add(a.name if a.asname else name)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                for a in node.names:
                    path = f"{node.module}.{a.name}"
                    self.aliases.setdefault(a.asname or a.name, set()).add(path)
            elif isinstance(node, ast.Assign):
                alias = not in_class and all(isinstance(t, ast.Name) for t in node.targets)
                binds += [(t, node.value, alias, in_class) for t in node.targets]
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                binds.append((node.target, node.value, not in_class, in_class))
            elif isinstance(node, ast.AugAssign | ast.NamedExpr):
                binds.append((node.target, node.value, False, in_class))
            elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
                binds.append((node.target, node.iter, False, in_class))
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                binds.append((node.optional_vars, node.context_expr, False, in_class))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                args = [*node.args, *(k.value for k in node.keywords)]  # xs.append(obj): xs may
                if node.func.attr in _MUTATORS:  # hold the library's obj
                    binds += [(node.func.value, a, False, False) for a in args]
        changed = True
        while changed:  # until aliases and taints have spread as far as they go
            changed = False
            for target, value, alias, in_class in binds:
                if alias and isinstance(target, ast.Name):
                    new = self.refs(value) - self.aliases.get(target.id, set())
                    if new:
                        self.aliases.setdefault(target.id, set()).update(new)
                        changed = True
                if self.foreign(value):
                    changed |= self._taint(target, in_class)

    # -- scopes: a builtin or the learner's own name? ------------------------------------------
    def _scope_of(self, node: ast.AST) -> ast.AST:
        """The function, class, comprehension or module in which ``node`` is evaluated."""
        prev, child, parent = None, node, self.parents.get(node)
        while parent is not None:
            if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                if child in parent.body:
                    return parent
            elif isinstance(parent, ast.Lambda) and child is parent.body:
                return parent
            elif isinstance(parent, _COMPS):
                first = parent.generators[0]
                if not (child is first and prev is first.iter):
                    return parent
            prev, child, parent = child, parent, self.parents.get(parent)
        return self.tree

    def _bindings(self, scope: ast.AST) -> tuple[set[str], set[str]]:
        """Names bound in ``scope`` and names it declares global."""
        if scope in self.scopes:
            return self.scopes[scope]
        bound: set[str] = set()
        declared: set[str] = set()
        todo: list[ast.AST] = []
        if isinstance(scope, _FUNCS):
            a = scope.args
            args = [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]
            bound |= {x.arg for x in args if x is not None}
        if isinstance(scope, _COMPS):
            todo += [g.target for g in scope.generators]
        elif isinstance(scope, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            todo += scope.body
        while todo:
            n = todo.pop()
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                bound.add(n.name)
                continue
            if isinstance(n, (ast.Lambda, *_COMPS)):
                continue
            if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
                bound.add(n.id)
            elif isinstance(n, ast.Import | ast.ImportFrom):
                bound |= {(a.asname or a.name).split(".")[0] for a in n.names}
            elif isinstance(n, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and n.name:
                bound.add(n.name)
            elif isinstance(n, ast.Global):
                declared.update(n.names)
            elif isinstance(n, ast.Nonlocal):
                bound.update(n.names)
            todo.extend(ast.iter_child_nodes(n))
        self.scopes[scope] = (bound, declared)
        return bound, declared

    def _builtin(self, node: ast.Name) -> bool:
        """Does ``node`` name a builtin, bound by the learner in no scope that it sees?"""
        if node not in self.builtins:
            scope, first, answer = self._scope_of(node), True, True
            while True:
                bound, declared = self._bindings(scope)
                if node.id in declared:
                    answer = node.id not in self._bindings(self.tree)[0]
                    break
                if (first or not isinstance(scope, ast.ClassDef)) and node.id in bound:
                    answer = False
                    break
                if scope is self.tree:
                    break
                scope, first = self._scope_of(scope), False
            self.builtins[node] = answer
        return self.builtins[node]

    def _builtin_call(self, node: ast.Call, name: str) -> bool:
        f = node.func
        return isinstance(f, ast.Name) and f.id == name and self._builtin(f)

    def _literal_name(self, node: ast.Call, func: str) -> str | None:
        """The attribute of ``getattr(x, "name")`` (``setattr``, ``delattr``), if a literal."""
        sizes = {"getattr": (2, 3), "setattr": (3,), "delattr": (2,)}[func]
        if not self._builtin_call(node, func) or node.keywords or len(node.args) not in sizes:
            return None
        if any(isinstance(a, ast.Starred) for a in node.args):
            return None
        name = node.args[1]
        return (
            name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else None
        )

    # -- the checks ---------------------------------------------------------------------------
    def run(self) -> list[Violation]:
        for node in ast.walk(self.tree):
            self._check(node)
        self.found.sort(key=lambda f: f[0])  # innermost first where several start together
        return [v for _, v in self.found]

    def _flag(self, node: ast.AST, what: str, why: str) -> None:
        line = getattr(node, "lineno", 1)
        code = self.lines[line - 1].strip() if 0 < line <= len(self.lines) else ""
        where = (line, getattr(node, "col_offset", 0), getattr(node, "end_col_offset", 0))
        self.found.append((where, Violation(line, code, f"`{what}` is not allowed: {why}.")))

    def _check(self, node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            for a in node.names:
                self._path(a.name, node, "import")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                self._flag(node, "from . import", "a submission is a single file")
            elif any(a.name == "*" for a in node.names):
                self._flag(node, f"from {node.module} import *", "import names one by one")
            else:
                for a in node.names:
                    self._path(f"{node.module}.{a.name}", node, "import")
        elif isinstance(node, ast.Name):
            self._name(node)
        elif isinstance(node, ast.Attribute):
            self._attribute(node)
        elif isinstance(node, ast.Call):
            self._call(node)
        elif isinstance(node, ast.Assign | ast.Delete):
            for t in node.targets:
                self._mutation(t)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign | ast.For | ast.AsyncFor):
            self._mutation(node.target)
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            self._mutation(node.optional_vars)
        if self.refs(node) and self._context(node) != "extends":
            self._chain(node)

    def _name(self, node: ast.Name) -> None:
        if _dunder(node.id):
            load = isinstance(node.ctx, ast.Load)
            if not (node.id == "__name__" if load else node.id in _STORE_DUNDERS):
                self._flag(node, node.id, _DUNDER_WHY)
            return
        if (node.id not in _BUILTINS and node.id not in _DYNAMIC) or not self._builtin(node):
            return
        if node.id in _BUILTINS:
            self._flag(node, node.id, _BUILTINS[node.id])
            return
        call = self.parents.get(node)
        if not (isinstance(call, ast.Call) and call.func is node):
            if node.id != "type" or node not in self.inert:  # type[X] in an annotation
                self._flag(node, node.id, "call it directly, where the judge sees what it reaches")
        elif node.id == "type":
            if len(call.args) not in (1, 3):
                self._flag(node, ast.unparse(call), "call type(x) directly")
        elif self._literal_name(call, node.id) is None:
            why = "give the attribute's name as a string literal (x.name), or use a dict"
            self._flag(node, ast.unparse(call), why)

    def _attribute(self, node: ast.Attribute) -> None:
        attr, value = node.attr, node.value
        if _dunder(attr):
            ok = attr in _STRING_DUNDERS and isinstance(node.ctx, ast.Load)
            if attr in _SUPER_DUNDERS and isinstance(value, ast.Call):
                ok = self._builtin_call(value, "super")  # super().__init__()
            if not ok:
                self._flag(node, f".{attr}", _DUNDER_WHY)
        elif attr == "mro":
            self._flag(node, ".mro", "it lists a class's bases, which the judge cannot follow")
        elif self.host_rules and attr in self.vocab.host_attrs and not self.refs(value):
            self._flag(node, f".{attr}", _HOST)
        elif attr.startswith("_") and not self.refs(value) and self.foreign(value):
            self._flag(node, f".{attr}", _PRIVATE_WHY)

    def _call(self, node: ast.Call) -> None:
        for func in ("getattr", "setattr", "delattr"):
            name = self._literal_name(node, func)
            if name is None:
                continue
            if _dunder(name) and not (func == "getattr" and name in _STRING_DUNDERS):
                self._flag(node, f'{func}(..., "{name}")', _DUNDER_WHY)
            elif func != "getattr" and self.foreign(node.args[0]):
                self._flag(node, ast.unparse(node), _MUTATE_WHY)
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in _MUTATORS:
            for p in self.refs(f.value):
                if p in self.vocab.function_modules:
                    continue  # cuda.atomic.add(array, i, v), tl.sort(x), jnp.add: functions
                if "." in p and not p.rpartition(".")[2][:1].isupper():  # not torch.Tensor.add
                    self._flag(node, f"{p}.{f.attr}", _MUTATE_WHY)
                    return

    def _mutation(self, target: ast.AST) -> None:
        if isinstance(target, ast.Tuple | ast.List):
            for e in target.elts:
                self._mutation(e)
        elif isinstance(target, ast.Starred):
            self._mutation(target.value)
        elif (isinstance(target, ast.Attribute) and self.foreign(target.value)) or (
            isinstance(target, ast.Subscript) and self.refs(target.value)
        ):
            self._flag(target, ast.unparse(target), _MUTATE_WHY)

    def _context(self, node: ast.AST) -> str:
        """How ``node``'s value is used; "escape" where it could flow out of the paths' sight."""
        if node in self.inert:
            return "inert"
        parent = self.parents.get(node)
        if isinstance(parent, ast.Attribute):
            return "extends"
        if isinstance(parent, ast.keyword):
            node, parent = parent, self.parents.get(parent)
        if isinstance(parent, ast.Call):
            if parent.func is node:
                return "call"
            if parent.args and parent.args[0] is node and self.refs(parent):
                return "extends"  # getattr(x, "name")
            f = parent.func
            return (
                "sink"
                if isinstance(f, ast.Name) and f.id in _SINKS and self._builtin(f)
                else "escape"
            )
        if isinstance(parent, ast.Subscript) and parent.value is node:
            return "subscript"
        if isinstance(parent, ast.Compare):
            ops = [op for op, c in zip(parent.ops, parent.comparators, strict=True) if c is node]
            return "in" if ops and isinstance(ops[0], ast.In | ast.NotIn) else "compare"
        if isinstance(parent, ast.Assign | ast.AnnAssign) and parent.value is node:
            targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
            plain = all(isinstance(t, ast.Name) for t in targets)
            return (
                "alias"
                if plain and not isinstance(self._scope_of(parent), ast.ClassDef)
                else "escape"
            )
        if isinstance(parent, ast.For | ast.AsyncFor | ast.comprehension) and parent.iter is node:
            return "iter"
        if isinstance(parent, ast.If | ast.While | ast.IfExp | ast.Assert) and parent.test is node:
            return "test"
        if isinstance(parent, ast.UnaryOp | ast.BinOp):
            return "arith"
        if isinstance(parent, ast.FormattedValue | ast.MatchValue | ast.MatchClass):
            return "compare"
        if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return "decorator" if node in parent.decorator_list else "escape"
        if isinstance(
            parent, ast.Tuple | ast.List | ast.Set | ast.Dict | ast.Starred | ast.BoolOp | ast.IfExp
        ):
            return "sink" if self._context(parent) in _FREE else "escape"
        return "escape"

    def _chain(self, node: ast.AST) -> None:
        ctx = self._context(node)
        paths = sorted(self.refs(node))
        flagged = any(self._path(p, node, ctx) for p in paths)
        if not flagged and ctx == "escape" and not all(_constant(p, self.vocab) for p in paths):
            self._flag(node, ast.unparse(node), _ESCAPE_WHY)

    def _path(self, path: str, node: ast.AST, ctx: str) -> bool:
        """Flag ``path`` used in context ``ctx`` if the policy refuses it; True if flagged."""
        segs = path.split(".")
        root = segs[0]
        why = DENIED_MODULES.get(root)
        if root == "type()":
            return False
        if why is None and any(_dunder(s) and s not in _STRING_DUNDERS for s in segs[1:]):
            why = _DUNDER_WHY
        if why is None and any(s.startswith("_") and not _dunder(s) for s in segs):
            public = any(path.startswith(p + ".") for p in self.vocab.open_private)
            why = None if public else _PRIVATE_WHY
        for prefix, reason in self.vocab.denied_paths.items():
            if why is None and (path == prefix or path.startswith(prefix + ".")):
                why = reason
        if why is None and self.host_rules and path in _HOST_PATHS:
            why = _HOST
        if (
            why is None
            and self.host_rules
            and any(path == p or path.startswith(p + ".") for p in _LIBRARY_PATHS)
        ):
            why = _COMPILE
        if why is None and self.host_rules and root == "numpy" and not self._numpy(path, ctx):
            why = _NP_WHY
        environ = path == "os.environ" and ctx in ("subscript", "in", "iter")  # reads
        if (
            why is None
            and root == "os"
            and not environ
            and not self._listed(path, ctx, _OS_ALLOWED)
        ):
            why = _OS_WHY
        if why is None and root == "sys" and not self._listed(path, ctx, _SYS_ALLOWED, _SYS_OPEN):
            why = _SYS_WHY
        if why is not None:
            self._flag(node, path, why)
        return why is not None

    @staticmethod
    def _listed(
        path: str, ctx: str, allowed: frozenset[str], open_: frozenset[str] = frozenset()
    ) -> bool:
        """Is ``path`` allowed, or (imported or aliased) on the way to what is?"""
        if path in allowed | open_ or any(path.startswith(o + ".") for o in open_):
            return True
        return ctx in ("import", "alias") and any(a.startswith(path + ".") for a in allowed | open_)

    def _numpy(self, path: str, ctx: str) -> bool:
        parent, _, leaf = path.rpartition(".")
        if path == "numpy" or path in _NP_CONSTANTS | {"numpy.ndarray"}:
            return ctx != "call"
        if parent == "numpy" and _DTYPE.fullmatch(leaf):
            return ctx != "call"  # np.float32(tensor) would read the tensor on the host
        return path in _NP_CALLABLE
