"""A problem's reference.py loaded as a module, for the tests of the references themselves."""

from __future__ import annotations

import importlib.util
from types import ModuleType

from worker.grading import problems


def load(slug: str) -> ModuleType:
    path = problems.REPO_PROBLEMS / slug / "reference.py"
    spec = importlib.util.spec_from_file_location(f"ref_{slug.replace('-', '_')}", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
