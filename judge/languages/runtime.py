"""What a language gives the referee and the runner: a prepared file, a loaded ``solve``.

Referee side (trusted): ``Language.prepare`` checks and compiles a source in the work folder
and answers ``Prepared`` or raises ``Refused`` with the verdict. Runner side (the sandboxed
process, where the submission lives): ``Language.load`` turns that file into a ``Loaded``, whose
``invoke`` calls ``solve`` with the judge's arguments (torch tensors as the runner bound them,
and ints) and whose ``synchronize`` waits for the submission's device work and reports its
errors. Nothing here imports torch or a compiler at import time: the web app reads the
registry, and each language imports its own toolchain when it loads.
"""

from __future__ import annotations

import importlib.util
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from judge import hostpaths


class Refused(Exception):
    """A source the referee will not run: its verdict (a Verdict value) and the message, with
    the compiler's result where one ran (``results.CompileResult``) and its seconds."""

    def __init__(
        self, verdict: str, message: str, compile: Any = None, compile_s: float | None = None
    ) -> None:
        super().__init__(message)
        self.verdict = verdict
        self.message = message
        self.compile = compile
        self.compile_s = compile_s


class SubmissionError(Exception):
    """Raised in the runner: the submission itself failed, with this verdict and message."""

    def __init__(self, verdict: str, message: str) -> None:
        super().__init__(message)
        self.verdict = verdict
        self.message = message


@dataclass
class RunContext:
    """What the runner tells a language's ``load``."""

    device: str  # "cuda" or "cpu"
    argtypes: list[str]  # "ptr" for a tensor, "int"
    forbid_library: bool  # the library rule applies in solve (rules.py)
    torch: Any  # the torch module, already imported
    classify: Any  # runner.classify: (exception, filename) -> (verdict, message)
    # Each argument's role from the problem's signature: "input", "output", "inout" or "int"
    # (a language that returns its outputs, as Pallas does, copies them into the output tensors).
    roles: list[str] = field(default_factory=list)


@dataclass
class Prepared:
    path: str  # the file the runner loads, relative to the work folder
    compile: Any  # results.CompileResult
    compile_s: float | None = None  # time a compiler took (None: nothing was compiled)


class Loaded:
    """A submission loaded in the runner. ``invoke`` returns what ``solve`` returned."""

    def invoke(self, args: list[Any]) -> Any:
        raise NotImplementedError

    def synchronize(self) -> None:
        """Wait for the submission's device work; raise SubmissionError for its errors."""

    def compile_ahead(self, cases: list[dict[str, Any]]) -> int:
        """Compile for the referee's placeholder cases before the tests (a language with
        ``compiles_ahead``); the number of sizes compiled."""
        return 0

    def take_warnings(self) -> list[str]:
        """Notes for the result since the last call (a CPU worker's: what a GPU would refuse)."""
        return []


def _innermost(e: BaseException) -> list[BaseException]:
    """``e`` and the exceptions it was raised from (``raise X from e`` in a library), outermost
    first: the Triton interpreter wraps an error in a kernel in an ``InterpreterError`` raised
    at the launch, and only its cause's traceback holds the kernel's own frames."""
    chain = [e]
    while chain[-1].__cause__ is not None and len(chain) < 8:  # a cycle cannot run forever
        chain.append(chain[-1].__cause__)
    return chain


def submission_traceback(e: BaseException, filename: str) -> str:
    """The traceback frames in the learner's own file, then the error: no harness internals.
    The frames run from the outermost call to the innermost, through a wrapper's cause (the
    launch line in ``solve``, then the kernel's line), so the last frame is the learner's
    deepest line; the error is the innermost one's, where a wrapper only repeats it."""
    chain = _innermost(e)
    frames = [
        f
        for x in chain
        for f in traceback.extract_tb(x.__traceback__)
        if f.filename.endswith(filename)
    ]
    lines = [f"  line {f.lineno}, in {f.name}\n    {f.line}" for f in frames[-5:]]
    head = "Traceback (in your code):\n" + "\n".join(lines) + "\n" if lines else ""
    last = chain[-1] if len(chain) > 1 and repr(chain[-1]) in str(e) else e
    inside = hostpaths.raised_in(last, filename) if lines else ""
    error = "".join(traceback.format_exception_only(type(last), last)).strip()
    return hostpaths.relative(head + (inside + "\n" if inside else "") + error)


def import_solve(path: Path, on_error: Any) -> Any:
    """``solve`` from the Python file at ``path``. ``on_error(e) -> verdict`` names the verdict
    of an exception raised while the file runs (compile_error, unless it ran out of memory)."""
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["solution"] = mod
    try:
        spec.loader.exec_module(mod)
    except SyntaxError as e:
        raise SubmissionError(
            "compile_error", f"line {e.lineno}: {e.msg}\n{(e.text or '').rstrip()}"
        ) from e
    except BaseException as e:  # any failure while importing the file means it does not load
        raise SubmissionError(on_error(e), submission_traceback(e, path.name)) from e
    solve = getattr(mod, "solve", None)
    if not callable(solve):
        raise SubmissionError("compile_error", "the file must define a function solve(...)")
    return solve
