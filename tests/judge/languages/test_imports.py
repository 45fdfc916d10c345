"""The import rule (languages/imports.py): beyond the standard library, a Python submission
imports only its language's packages, refused with the line before anything runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge import grader, languages
from judge.languages.imports import check_imports
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
