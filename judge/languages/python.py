"""The Python languages' common part: a ``solution.py`` defining ``solve(...)``.

Referee side, before any process starts: the syntax, then the static policy (policy.py), with
the problem's library rule where the language's track has one. Runner side: the file imported
as ``solution``, ``solve`` called with the judge's arguments, converted by ``convert`` (Numba
wants its own device arrays), under the library rule (rules.py) when it applies, and required to
return None (destination-passing style).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from judge.languages.base import Language
from judge.languages.imports import check_imports
from judge.languages.runtime import (
    Loaded,
    Prepared,
    Refused,
    RunContext,
    SubmissionError,
    import_solve,
)

if TYPE_CHECKING:
    from judge.problem.schema import Case, Problem

SOURCE = "solution.py"


class PythonLanguage(Language):
    suffix: ClassVar[str] = ".py"
    editor_mode: ClassVar[str] = "python"
    comment: ClassVar[str] = "#"
    runs_on_cpu: ClassVar[bool] = True
    jit: ClassVar[bool] = True
    # Third-party packages a submission may import besides the standard library (imports.py).
    packages: ClassVar[frozenset[str]] = frozenset({"torch", "numpy"})
    # Tensor element types the language's arrays have (None: all); a problem with another is
    # refused, naming ``dtypes_owner`` ("Numba has no bfloat16 arrays").
    dtypes: ClassVar[frozenset[str] | None] = None
    dtypes_owner: ClassVar[str] = ""
    # On the CPU, a test case runs only when its tensors hold at most this many elements in all
    # (None: no limit of the language's own); the larger ones run only on a GPU.
    cpu_max_elements: ClassVar[int | None] = None
    # Whether solve may take a problem that spans GPUs: its tensors (and comm's peer buffers,
    # torch tensors too) reach the kernels as they are (docs/multi-gpu.md).
    spans_gpus: ClassVar[bool] = False

    def signature(self, problem: Problem) -> str:
        names = [a.name for a in problem.args] + (["comm"] if problem.gpus > 1 else [])
        return f"def solve({', '.join(names)}):"

    def fits(self, problem: Problem) -> bool:
        return not self._missing_dtypes(problem) and (problem.gpus == 1 or self.spans_gpus)

    def check(self, problem: Problem) -> None:
        """A problem this language cannot express (Refused), before the source is read."""
        if problem.gpus > 1 and not self.spans_gpus:
            raise Refused(
                "compile_error",
                f"this problem spans {problem.gpus} GPUs, which {self.label} submissions cannot "
                "take yet: use Triton or PyTorch (docs/multi-gpu.md)",
            )
        bad = self._missing_dtypes(problem)
        if bad:
            raise Refused(
                "compile_error",
                f"{self.dtypes_owner} has no {', '.join(bad)} arrays: this problem cannot be "
                f"solved in {self.label} (use Triton, CUDA or PyTorch)",
            )

    def _missing_dtypes(self, problem: Problem) -> list[str]:
        if self.dtypes is None:
            return []
        return sorted({a.dtype for a in problem.args if a.is_tensor and a.dtype not in self.dtypes})

    def runs_on_cpu_case(self, problem: Problem, case: Case) -> bool:
        if not super().runs_on_cpu_case(problem, case):
            return False
        if self.cpu_max_elements is None:
            return True
        sizes = (math.prod(problem.shape(a, case.params)) for a in problem.args if a.is_tensor)
        return sum(sizes) <= self.cpu_max_elements

    def check_source(self, source: str, problem: Problem) -> object | None:
        """This language's own static rule, after the shared policy: a violation (its ``str`` is
        the learner's message) or None. Pallas refuses JAX compute outside its kernels."""
        return None

    def prepare(
        self, source: str, workdir: Path, problem: Problem, *, static_policy: bool, compile_s: float
    ) -> Prepared:
        from judge.languages import policy
        from judge.results import CompileResult

        self.check(problem)
        (workdir / SOURCE).write_text(source)
        try:  # a syntax error is reported before any process starts
            compile(source, SOURCE, "exec")
        except SyntaxError as e:
            raise Refused(
                "compile_error", f"line {e.lineno}: {e.msg}\n{(e.text or '').rstrip()}"
            ) from e
        if static_policy:  # policy.py: refused before any process starts
            refused: object = policy.check_python(
                source, forbid_library_compute=self.library_rule(problem)
            )
            if refused is None:
                refused = check_imports(source, self.packages, self.label)
            if refused is None:
                refused = self.check_source(source, problem)
            if refused is not None:
                raise Refused("rejected", str(refused))
        return Prepared(SOURCE, CompileResult(True, "", 0.0))

    def load(self, path: Path, ctx: RunContext) -> Loaded:
        def on_error(e: BaseException) -> str:
            verdict = ctx.classify(e, path.name)[0]
            return verdict if verdict == "memory_limit_exceeded" else "compile_error"

        return PythonLoaded(import_solve(path, on_error), ctx, self)

    def convert(self, args: list[Any], ctx: RunContext) -> list[Any]:
        """The arguments as ``solve`` receives them (torch tensors and ints here)."""
        return args

    def synchronize(self, ctx: RunContext) -> None:
        if ctx.device == "cuda":
            ctx.torch.cuda.synchronize()


class PythonLoaded(Loaded):
    def __init__(self, solve: Any, ctx: RunContext, lang: PythonLanguage) -> None:
        self.solve, self.ctx, self.lang = solve, ctx, lang

    def invoke(self, args: list[Any]) -> Any:
        from judge.sandbox import rules

        call_args = self.lang.convert(args, self.ctx)
        if self.ctx.forbid_library:
            with rules.no_library_compute():
                result = self.solve(*call_args)
        else:
            result = self.solve(*call_args)
        if result is not None:
            raise SubmissionError(
                "wrong_answer",
                "solve must write its outputs in place and return None "
                f"(it returned a {type(result).__name__})",
            )
        return result

    def synchronize(self) -> None:
        self.lang.synchronize(self.ctx)
