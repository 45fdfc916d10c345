"""The language registry: the one list of submission languages.

The web app (submission validation, problem pages, leaderboards), the API
(``GET /api/v1/languages``, problem signatures and starters), both CLIs (``--language`` and
inference from a file's suffix) and the editor (its menu and highlighting, from data the page
embeds) read it. Adding a language: a module here declaring a ``Language`` subclass and its
``LANGUAGE`` instance, added to ``_ALL`` (docs/languages.md says what else it needs today).
"""

from __future__ import annotations

import re

from judge.languages import cuda, helion, mojo, numba, pallas, policy, pytorch, triton
from judge.languages.base import Language, Track

__all__ = [
    "Language",
    "Track",
    "all",
    "by_suffix",
    "default",
    "get",
    "infer",
    "names",
    "require",
]

# In menu order; the first is the editor's default, and the first of a suffix is that suffix's
# default when nothing else tells the languages apart (``infer``).
_ALL: tuple[Language, ...] = (
    triton.LANGUAGE,
    cuda.LANGUAGE,
    pytorch.LANGUAGE,
    numba.LANGUAGE,
    pallas.LANGUAGE,
    helion.LANGUAGE,
    mojo.LANGUAGE,
)
_BY_NAME = {lang.name: lang for lang in _ALL}
_BY_SUFFIX: dict[str, Language] = {}
for _lang in _ALL:
    _BY_SUFFIX.setdefault(_lang.suffix, _lang)
assert len(_BY_NAME) == len(_ALL), "language names are unique"
# Hand-written starters (base.py ``starter_stem``): each suffix's first language owns
# ``starter/solution<suffix>``, the others are named after themselves.
for _lang in _ALL:
    if (_lang.starter_stem == "solution") != (_BY_SUFFIX[_lang.suffix] is _lang):
        raise RuntimeError(f"{_lang.name}: starter_stem 'solution' is its suffix's first's only")

_HEADER = re.compile(r"^\s*(?:#|//)\s*language\s*:\s*([\w-]+)", re.IGNORECASE | re.MULTILINE)
_IMPORT = re.compile(r"^\s*(?:import|from)\s+(\w+)", re.MULTILINE)
# Which import tells a Python source's language, most specific first (a Triton or Numba file
# imports torch too).
_PY_ORDER = ("pallas", "numba", "helion", "triton", "pytorch")


def all() -> tuple[Language, ...]:
    """Every language, in menu order."""
    return _ALL


def names() -> tuple[str, ...]:
    return tuple(_BY_NAME)


def get(name: str) -> Language | None:
    """The language called ``name``, or None."""
    return _BY_NAME.get(name)


def require(name: str) -> Language:
    """The language called ``name``; ValueError naming the known ones otherwise."""
    lang = _BY_NAME.get(name)
    if lang is None:
        raise ValueError(f"unknown language {name!r}; use one of {', '.join(_BY_NAME)}")
    return lang


def by_suffix(suffix: str) -> Language | None:
    """The language whose source files end in ``suffix`` (".py", ".cu"), or None."""
    return _BY_SUFFIX.get(suffix)


def default() -> Language:
    return _ALL[0]


def infer(filename: str, source: str | None = None) -> Language | None:
    """The language of a source file: a ``# language: NAME`` (or ``// language: NAME``) line
    among its first ten, else a file name starting ``NAME_`` (``numba_fast.py``), else what a
    Python file imports (jax, then numba, then helion, then triton, then torch alone), else its suffix's first
    language. None for a suffix no language has."""
    suffix = "." + filename.rsplit(".", 1)[-1] if "." in filename else ""
    candidates = [lang for lang in _ALL if lang.suffix == suffix]
    if not candidates:
        return None
    head = "\n".join((source or "").splitlines()[:10])
    if m := _HEADER.search(head):
        named = _BY_NAME.get(m.group(1).lower())
        if named is not None and named in candidates:
            return named
    stem = filename.rsplit("/", 1)[-1].split(".", 1)[0]
    for lang in candidates:
        if stem.startswith(lang.name + "_"):
            return lang
    if len(candidates) > 1 and source:
        imported = set(_IMPORT.findall(source))
        for name in _PY_ORDER:
            lang = _BY_NAME[name]
            if lang in candidates and imported & set(lang.markers):
                return lang
    return candidates[0]


# The static policy joins every registered language's vocabulary (policy.py); ``all`` reads the
# registry at each check, so a language added to it (a test's) is seen there too.
policy.use_registry(all)
