"""Which modules a Python submission may import: its language's packages and a short list of
the standard library. Everything else is refused, with its line, before any process starts.

The shared policy (policy.py) follows every use of an imported module to a dotted path and
refuses the paths that patch or inspect the harness. That can hold only for modules whose every
way to run code is known, and the standard library has many that run a string as code or read a
file: ``timeit.timeit(stmt=...)``, ``cProfile.run``, ``profile.run``, ``trace.Trace().run``,
``pdb.run``, ``bdb.Bdb().run``, ``doctest.run_docstring_examples``, ``codecs.open``,
``configparser``, ``logging.basicConfig(filename=...)``, ``netrc``, ``mimetypes``... (issue #36:
a code string through ``timeit`` switched the kernel-track rule off from inside). So the standard
library is an allow-list (``STDLIB``): modules that compute on values and hold no code runner, no
file, no process, no thread, no interpreter hook; ``os`` and ``sys`` only for what policy.py lets
through (the environment, ``os.path``'s string helpers, stdout). A kernel needs no more.

A package outside the standard library is refused unless the language names it (``packages``):
CuPy, JAX or SciPy in a Triton file compute on the judge's CUDA tensors where neither the static
policy nor torch's library rule (rules.py) looks. ``packaging`` is allowed everywhere: tutorials
read Triton's version with it.
"""

from __future__ import annotations

import ast
import sys

from judge.languages.policy import Violation

EVERYWHERE = frozenset({"packaging"})

# The standard library a submission may import, each for a reason a kernel's host code has.
STDLIB = frozenset(
    {
        "__future__",  # annotations
        "math", "cmath", "numbers", "fractions", "decimal", "statistics", "random",  # numbers
        "functools", "itertools", "operator",  # partial, lru_cache, product, mul (no attrgetter)
        "collections", "heapq", "bisect", "array", "copy", "struct",  # containers and bytes
        "typing", "dataclasses", "enum", "abc",  # declaring types
        "contextlib", "string", "re", "time",  # helpers; time for the learner's own timing
        "os", "sys",  # only what policy.py allows: the environment, os.path's helpers, stdout
    }
)  # fmt: skip


def check_imports(source: str, packages: frozenset[str], label: str) -> Violation | None:
    """The first import of a module outside ``packages`` and ``STDLIB``, or None (also for a
    source that does not parse: the syntax error is the caller's)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    allowed = packages | EVERYWHERE
    lines = source.splitlines()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            if top in allowed or top in STDLIB:
                continue
            code = lines[node.lineno - 1].strip() if node.lineno <= len(lines) else name
            if top in sys.stdlib_module_names:
                why = (
                    f"of the standard library, a submission may import only {_listed(sorted(STDLIB))}: "
                    f"{top} can run code, reach files or the interpreter where the judge does not look"
                )
            else:
                why = (
                    f"besides the standard library, a {label} submission may import only "
                    f"{_listed(sorted(packages))}: {top} runs code that is not your kernel and that "
                    "the judge does not check"
                )
            return Violation(node.lineno, code, why)
    return None


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
