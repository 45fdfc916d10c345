"""NumPy's overflow warnings named by the learner's line, beside the failing case (#37, item 4)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from judge import grader
from judge.problem import loader
from judge.sandbox import numeric_notes
from judge.verdicts import Verdict

ROOT = Path(__file__).resolve().parents[3]


def test_a_warning_is_noted_with_the_line_of_the_learners_file() -> None:
    code = compile(
        "import numpy as np\n\ndef kernel(x):\n    return np.exp(x)\n", "/w/solution.py", "exec"
    )
    scope: dict[str, object] = {}
    exec(code, scope)
    out: list[str] = []
    with numeric_notes.notes("solution.py", out):
        for _ in range(5):  # once each, however often
            scope["kernel"](np.float32(100.0))  # type: ignore[operator]
        np.exp(np.float32(100.0))  # not on a line of the learner's: not noted
    assert out == ["line 4: overflow encountered in exp"]


def test_the_failing_case_says_where_numpy_warned() -> None:
    path = ROOT / "problems/softmax/solutions/rejected/wrong_answer_no_max.py"
    res = grader.grade(loader.resolve("softmax"), path.read_text(), "triton", device="cpu")
    assert res.verdict == Verdict.WRONG_ANSWER
    assert "NumPy warned while your kernel ran: line 18: overflow encountered in exp" in res.message
    assert "a NaN your kernel computed" in res.message
    first = next(c for c in res.cases if not c.passed)
    assert "line 18: overflow encountered in exp" in first.message


def test_other_warnings_are_shown_as_before() -> None:
    import warnings

    seen: list[str] = []
    before = warnings.showwarning
    warnings.showwarning = lambda message, *rest, **kw: seen.append(str(message))
    try:
        out: list[str] = []
        with numeric_notes.notes("solution.py", out):
            warnings.warn("a library's note", UserWarning, stacklevel=1)
    finally:
        warnings.showwarning = before
    assert out == []
    assert seen == ["a library's note"]
