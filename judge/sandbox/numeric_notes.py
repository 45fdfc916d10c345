"""NumPy's warnings about a kernel's arithmetic, named by the learner's line (CPU, in the runner).

Under the CPU interpreter a kernel's ``tl.exp`` is NumPy's, and an overflow or an invalid value
shows as a ``RuntimeWarning`` ("overflow encountered in exp") attributed to the interpreter's
own file. ``notes(learner_file, out)`` collects, while a call runs, each such warning with the line of the
learner's file that was running: the referee puts them beside the case they belong to when it
fails ("line 14: overflow encountered in exp"), where a NaN or Inf in the output comes from.
Runs in the submission's process: informational only, and the referee treats it as untrusted.
"""

from __future__ import annotations

import contextlib
import sys
import warnings
from collections.abc import Iterator
from typing import TextIO

MAX_NOTES = 3


@contextlib.contextmanager
def notes(learner_file: str, out: list[str]) -> Iterator[None]:
    """Append to ``out`` (at most ``MAX_NOTES``, each once) ``"line N: <warning>"`` for every
    numeric warning raised while a line of ``learner_file`` ran."""
    with warnings.catch_warnings():
        warnings.simplefilter("always", RuntimeWarning)
        shown = warnings.showwarning

        def record(
            message: Warning | str,
            category: type[Warning],
            filename: str,
            lineno: int,
            file: TextIO | None = None,
            line: str | None = None,
        ) -> None:
            if not issubclass(category, RuntimeWarning):  # not ours: shown as before
                shown(message, category, filename, lineno, file, line)
                return
            if len(out) >= MAX_NOTES:
                return
            frame = sys._getframe(1)
            while frame is not None and not frame.f_code.co_filename.endswith(learner_file):
                frame = frame.f_back  # type: ignore[assignment]
            if frame is None:
                return
            note = f"line {frame.f_lineno}: {str(message)[:160]}"
            if note not in out:
                out.append(note)
                shown(message, category, learner_file, frame.f_lineno, file, line)

        warnings.showwarning = record
        yield
