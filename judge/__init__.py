"""The judge core: load problems, compile and run submissions, check and time them.

Imports only the standard library at module level; torch, triton and numpy are loaded where
grading needs them, so that this package runs on GPU hosts that have nothing else.
"""

from judge.problem.schema import Problem, ProblemError
from judge.results import BenchResult, CaseResult, CompileResult, GradeResult
from judge.verdicts import Verdict

__all__ = [
    "BenchResult",
    "CaseResult",
    "CompileResult",
    "GradeResult",
    "Problem",
    "ProblemError",
    "Verdict",
]
