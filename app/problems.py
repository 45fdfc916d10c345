"""The problems the site serves: loaded from the problems folder, reloadable by admins.

A broken folder is reported (``errors``) and the others keep working. Statement Markdown is
rendered once per load: markdown-it with the dollarmath plugin (KaTeX renders it client-side).
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

from app import curriculum
from judge.problem.loader import load_all, problems_dir
from judge.problem.schema import Problem, ProblemError

log = logging.getLogger(__name__)

_md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
_md.use(dollarmath_plugin, allow_space=True, double_inline=True)


def render_markdown(text: str) -> str:
    return str(_md.render(text))


@dataclass
class Catalog:
    problems: dict[str, Problem] = field(default_factory=dict)
    errors: list[ProblemError] = field(default_factory=list)
    statements: dict[str, str] = field(default_factory=dict)
    editorials: dict[str, str] = field(default_factory=dict)
    _numbers: dict[str, int] = field(default_factory=dict, repr=False)

    def ordered(self) -> list[Problem]:
        """The one order the site lists problems in: the Learn page's (track by track, then
        ``order`` within each), so that the list, the Learn page and the boards agree."""
        return curriculum.ordered(list(self.problems.values()))

    def number(self, slug: str) -> int | None:
        """A problem's number as pages show it: its place in ``ordered()``, 1 to N without a
        gap, whatever the ``order`` values in problem.toml skip."""
        if len(self._numbers) != len(self.problems):
            self._numbers = {p.slug: i for i, p in enumerate(self.ordered(), 1)}
        return self._numbers.get(slug)


class ProblemRegistry:
    """Thread-safe holder of the current catalog; ``reload`` swaps it atomically."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root
        self._lock = threading.Lock()
        self.catalog = Catalog()

    def reload(self) -> Catalog:
        root = self.root or problems_dir()
        report = load_all(root)
        cat = Catalog(errors=list(report.errors))
        for p in report.problems:
            try:
                cat.statements[p.slug] = render_markdown(p.statement)
                ed = p.editorial
                if ed:
                    cat.editorials[p.slug] = render_markdown(ed)
            except (OSError, UnicodeDecodeError) as err:
                cat.errors.append(ProblemError(p.path / "statement.md", "", str(err)))
                continue
            cat.problems[p.slug] = p
        with self._lock:
            self.catalog = cat
        for e in cat.errors:
            log.warning("problem folder skipped: %s", e)
        log.info("loaded %d problems from %s", len(cat.problems), root)
        return cat

    def get(self, slug: str) -> Problem | None:
        return self.catalog.problems.get(slug)
