"""The language registry: the one list of submission languages.

The web app (submission validation, problem pages, leaderboards), the API
(``GET /api/v1/languages``, problem signatures and starters), both CLIs (``--language`` and
inference from a file's suffix) and the editor (its menu and highlighting, from data the page
embeds) read it. Adding a language: a module here declaring a ``Language`` subclass and its
``LANGUAGE`` instance, added to ``_ALL`` (docs/languages.md says what else it needs today).
"""

from __future__ import annotations

from worker.grading.languages import cuda, triton
from worker.grading.languages.base import Language, Track

__all__ = ["Language", "Track", "all", "by_suffix", "default", "get", "names", "require"]

# In menu order; the first is the editor's default.
_ALL: tuple[Language, ...] = (triton.LANGUAGE, cuda.LANGUAGE)
_BY_NAME = {lang.name: lang for lang in _ALL}
_BY_SUFFIX = {lang.suffix: lang for lang in _ALL}
assert len(_BY_NAME) == len(_ALL) and len(_BY_SUFFIX) == len(_ALL), "names and suffixes unique"


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
