"""The checkers: one small module per way of judging a case's outputs.

problem.toml picks one with ``[check] checker = "<name>"`` (default ``close``); the checker's
own options sit beside it in ``[check]``. To add one, write a module with a ``Checker``
subclass and a module-level ``CHECKER``, and list it here.
"""

from __future__ import annotations

from judge.checkers import argmax, close, compaction, exact, sorted_stable, topk
from judge.checkers.base import Checker, Option, Outcome
from judge.problem.schema import DEFAULT_CHECKER

__all__ = ["CHECKERS", "Checker", "Option", "Outcome", "get"]

DEFAULT = DEFAULT_CHECKER

CHECKERS: dict[str, Checker] = {
    m.CHECKER.name: m.CHECKER for m in (close, exact, argmax, sorted_stable, compaction, topk)
}


def get(name: str) -> Checker:
    """The checker of that name; KeyError names the known ones."""
    try:
        return CHECKERS[name]
    except KeyError:
        raise KeyError(f"unknown checker {name!r}; expected one of {sorted(CHECKERS)}") from None
