"""The import rule (languages/imports.py): beyond the standard library, a Python submission
imports only its language's packages, refused with the line before anything runs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from judge import grader, languages
from judge.languages.imports import STDLIB, check_imports
from judge.languages.python import PythonLanguage
from judge.problem import loader
from judge.verdicts import Verdict

PYTHON = [lang for lang in languages.all() if isinstance(lang, PythonLanguage)]


@pytest.mark.parametrize("lang", PYTHON, ids=lambda lang: lang.name)
def test_a_language_may_import_its_own_packages_and_the_standard_library(
    lang: PythonLanguage,
) -> None:
    own = "\n".join(f"import {p}" for p in sorted(lang.packages))
    stdlib = "import math, functools, itertools\nfrom dataclasses import dataclass\n"
    assert (
        check_imports(f"{own}\n{stdlib}from packaging.version import Version\n", lang.packages, "X")
        is None
    )
    assert set(lang.markers) <= lang.packages  # the package that names the language is its own


@pytest.mark.parametrize(
    ("language", "source", "line", "package"),
    [
        ("triton", "import torch\nimport cupy as cp\n", 2, "cupy"),
        ("triton", "import torch\nfrom jax import numpy as jnp\n", 2, "jax"),
        ("triton", "def solve(a):\n    import scipy.signal\n", 2, "scipy"),
        ("numba", "from numba import cuda\nimport jax.dlpack\n", 2, "jax"),
        ("pallas", "import jax\nimport torch\n", 2, "torch"),
        ("pytorch", "import torch\nimport tensorflow as tf\n", 2, "tensorflow"),
    ],
)
def test_another_package_is_refused_with_its_line(
    language: str, source: str, line: int, package: str
) -> None:
    lang = languages.require(language)
    assert isinstance(lang, PythonLanguage)
    found = check_imports(source, lang.packages, lang.label)
    assert found is not None and found.line == line
    assert f"{package} runs code that is not your kernel" in found.reason
    assert found.reason.startswith(f"besides the standard library, a {lang.label} submission")


def test_the_grader_refuses_it_before_any_process_starts(tmp_path: Path) -> None:
    source = (
        "import torch\nimport cupy\n\n\n"
        "def solve(a, b, c, n):\n    cupy.add(cupy.asarray(a), cupy.asarray(b), out=cupy.asarray(c))\n"
    )
    res = grader.grade(loader.resolve("vector-add"), source, "triton", device="cpu", mode="run")
    assert res.verdict == Verdict.REJECTED
    assert res.message.startswith("line 2: import cupy")
    assert res.cases == []  # refused statically: nothing ran


# Every module the #36 probe used to run a string as code or to read a file.
CODE_AND_FILES = [
    "timeit",
    "cProfile",
    "profile",
    "trace",
    "pdb",
    "bdb",
    "doctest",
    "codecs",
    "configparser",
    "logging",
    "netrc",
    "mimetypes",
    "runpy",
    "code",
    "codeop",
    "importlib",
    "ctypes",
    "threading",
    "subprocess",
    "pickle",
    "io",
    "pathlib",
    "tempfile",
    "types",
]


@pytest.mark.parametrize("module", CODE_AND_FILES)
def test_a_standard_module_off_the_list_is_refused_with_its_line(module: str) -> None:
    lang = languages.require("triton")
    assert isinstance(lang, PythonLanguage)
    found = check_imports(f"import torch\nimport {module}\n", lang.packages, lang.label)
    assert found is not None and found.line == 2
    assert found.reason.startswith("of the standard library, a submission may import only ")
    assert f"{module} can run code, reach files or the interpreter" in found.reason
    found = check_imports(f"import torch\nfrom {module} import x\n", lang.packages, lang.label)
    assert found is not None and found.line == 2


def test_every_module_on_the_list_may_be_imported() -> None:
    source = "".join(f"import {m}\n" for m in sorted(STDLIB))
    assert check_imports(source, frozenset(), "X") is None
    assert sys.stdlib_module_names | {"__future__"} >= STDLIB
    assert not STDLIB & set(CODE_AND_FILES)


def test_the_timeit_switch_off_of_the_issue_is_rejected_before_it_runs() -> None:
    source = (
        "import timeit\nimport torch\n\n\ndef solve(a, b, c, n):\n"
        '    timeit.timeit(stmt="import os; print(os.getuid())", number=1)\n'
        "    torch.add(a, b, out=c)\n"
    )
    res = grader.grade(loader.resolve("vector-add"), source, "triton", device="cpu", mode="run")
    assert res.verdict == Verdict.REJECTED
    assert res.message.startswith("line 1: import timeit")
    assert res.cases == [] and "uid" not in res.stdout
