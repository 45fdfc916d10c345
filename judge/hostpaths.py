"""What a learner reads names no path of the host: a library's file is shown from its package
(``numba_cuda/numba/cuda/dispatcher.py``), Python's own from its library folder
(``python3.12/threading.py``), never ``/opt/torch/.venv/lib/python3.12/site-packages/...``.

Applied by the referee to everything a result shows (message, cases, warnings, output) and by the
runner to the tracebacks it writes, which also say when an error was raised inside a library
rather than on the learner's line.
"""

from __future__ import annotations

import re
import traceback
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from judge.results import GradeResult

# Anything up to a site-packages or dist-packages folder, or up to Python's own lib/pythonX.Y.
_PACKAGES = re.compile(r"(?:[A-Za-z]:)?[\\/](?:[^\s\"'<>:]*[\\/])?(?:site|dist)-packages[\\/]")
_STDLIB = re.compile(r"(?:[A-Za-z]:)?[\\/](?:[^\s\"'<>:]*[\\/])?lib[\\/](python3\.\d+)[\\/]")


def relative(text: str) -> str:
    """``text`` with every library path made package-relative."""
    if not text:
        return text
    return _STDLIB.sub(r"\1/", _PACKAGES.sub("", text))


def raised_in(e: BaseException, filename: str) -> str:
    """Where ``e`` was raised when that is not the learner's file (``filename``): one line naming
    the library's file, line and function, package-relative; "" when the learner's line raised."""
    frames = traceback.extract_tb(e.__traceback__)
    if not frames or frames[-1].filename.endswith(filename):
        return ""
    last = frames[-1]
    where = relative(last.filename)
    if where == last.filename and where.startswith("/"):  # not a library: the judge's own file
        where = where.rsplit("/", 1)[-1]
    return (
        f"Raised inside {where}, line {last.lineno}, in {last.name}: not a line of yours. "
        "Your line above called into the library, which failed there."
    )


def scrub(result: GradeResult) -> None:
    """A ``GradeResult``'s texts made package-relative, in place (the referee, before it is kept)."""
    result.message = relative(result.message)
    result.stdout = relative(result.stdout)
    result.warnings = [relative(w) for w in result.warnings]
    for case in result.cases:
        case.message = relative(case.message)
    if result.compile is not None:
        result.compile.log = relative(result.compile.log)
