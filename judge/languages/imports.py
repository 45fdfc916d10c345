"""Which packages a Python submission may import: its language's own, and the standard library.

The shared policy (policy.py) is a deny-list of standard-library modules and of paths inside the
packages a language uses. A package it has never heard of is another matter: CuPy, JAX or
SciPy in a Triton file compute on the judge's CUDA tensors (``__cuda_array_interface__``,
DLPack) where neither the static policy nor torch's library rule (rules.py) looks, and a
one-line Triton copy kernel would then pass as the learner's own. So beyond the standard
library each language names the packages its submissions may import (``packages``), and any
other top-level package is refused, with its line, before any process starts. ``packaging`` is
allowed everywhere: tutorials read Triton's version with it.
"""

from __future__ import annotations

import ast
import sys

from judge.languages.policy import Violation

EVERYWHERE = frozenset({"packaging"})


def check_imports(source: str, packages: frozenset[str], label: str) -> Violation | None:
    """The first import of a package outside ``packages`` and the standard library, or None
    (also for a source that does not parse: the syntax error is the caller's)."""
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
            if top in allowed or top in sys.stdlib_module_names:
                continue
            code = lines[node.lineno - 1].strip() if node.lineno <= len(lines) else name
            return Violation(
                node.lineno,
                code,
                f"besides the standard library, a {label} submission may import only "
                f"{_listed(sorted(packages))}: {top} runs code that is not your kernel and that "
                "the judge does not check",
            )
    return None


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
