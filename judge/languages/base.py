"""What a language declares: the base every language module fills in.

One instance per language, listed in ``languages/__init__.py``, is what the web app, the API
(``GET /api/v1/languages``), both CLIs and the editor read (names, suffix, editor mode, track,
CPU support, signature, starter), and what the judge calls: ``prepare`` in the referee (static
policy, compiling), ``load`` in the runner (a ``runtime.Loaded`` whose ``invoke`` calls
``solve`` and whose ``synchronize`` waits for its device work). See docs/languages.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

if TYPE_CHECKING:  # schema imports this package; at run time only the objects are used
    from judge.languages.runtime import Loaded, Prepared, RunContext
    from judge.problem.schema import Case, Problem

Track = Literal["kernel", "framework"]


class Language:
    """A submission language. Subclasses set the class attributes and the two generators."""

    name: ClassVar[str]  # what submissions, the API and ``--language`` carry: "triton"
    label: ClassVar[str]  # short, on leaderboards and submission pages: "Triton"
    menu_label: ClassVar[str]  # the editor's language menu: "Triton (Python)"
    suffix: ClassVar[str]  # a source file's suffix, for inference and starters: ".py"
    # A problem's hand-written starter is ``starter/<starter_stem><suffix>``: "solution" for the
    # first language of a suffix (Triton's solution.py, CUDA's solution.cu), the language's name
    # for the others sharing it (pallas.py), which would otherwise be shown the first one's. The
    # registry checks that each suffix has exactly one "solution", its first language.
    starter_stem: ClassVar[str] = "solution"
    # The CodeMirror language the editor and the code viewer highlight with; each mode is one
    # import in app/static/src/modes.js ("python", "cpp").
    editor_mode: ClassVar[str]
    comment: ClassVar[str]  # line-comment marker, for starters and the signature display
    track: ClassVar[Track] = "kernel"  # kernel: own kernels only; framework: any library op
    # Graded for correctness without a GPU (Triton: under its interpreter). When False, a CPU
    # worker compiles the source and answers not_run.
    runs_on_cpu: ClassVar[bool]
    declaration_end: ClassVar[str] = ""  # what ends the signature as a declaration (C: ";")
    # The first call at new sizes compiles (Triton's JIT, Numba's, torch.compile): it gets the
    # problem's compile limit on top of the call limit.
    jit: ClassVar[bool] = False
    # Whether that compiling happens on the CPU too (torch.compile's C++ kernels). Triton's
    # interpreter compiles nothing, only checks the kernel for sm_90 (interpreter.py), so the
    # CPU gives the others a short budget for it.
    jit_on_cpu: ClassVar[bool] = False
    # Triton on a GPU: kernels compiled ahead in parallel (precompile.py), the per-source
    # kernel cache (sourcecache.py) and the autotuner's policy (autotune.py).
    precompiles: ClassVar[bool] = False
    # On a GPU, the loaded submission compiles every case's sizes ahead of the tests
    # (``Loaded.compile_ahead``; Pallas: JAX compiles per shape).
    compiles_ahead: ClassVar[bool] = False
    # Words a source's first lines may carry to say it is in this language ("numba"); files
    # whose suffix several languages share are told apart by them (``languages.infer``).
    markers: ClassVar[tuple[str, ...]] = ()

    # -- the static policy's vocabulary: policy.py joins every registered language's to its own
    # (torch's and NumPy's), and checks every Python submission against the whole
    denied_paths: ClassVar[Mapping[str, str]] = {}
    """Paths refused in the language's libraries, each with its reason; a prefix refuses what
    is under it ("triton.backends")."""
    value_modules: ClassVar[tuple[str, ...]] = ()
    """Modules whose dtypes and NumPy-like constants are plain values a submission may pass
    anywhere ("triton.language": ``tl.float16``)."""
    function_modules: ClassVar[frozenset[str]] = frozenset()
    """Modules whose functions share a name with a container's mutator (``cuda.atomic.add``,
    ``tl.sort``): calling them changes no library object."""
    constant_paths: ClassVar[re.Pattern[str] | None] = None
    """Dotted paths (matched whole) that are plain values too (Numba's ``cuda.threadIdx.x``)."""
    host_attrs: ClassVar[frozenset[str]] = frozenset()
    """Attributes that hand the host a tensor's data, refused with the library rule
    (Numba's ``copy_to_host``)."""
    open_private: ClassVar[tuple[str, ...]] = ()
    """Modules whose names starting with ``_`` may be used ("triton.language")."""

    def signature(self, problem: Problem) -> str:
        """``solve``'s signature in this language, from the problem's ``[signature]``."""
        raise NotImplementedError

    # -- the judge ------------------------------------------------------------------------
    def library_rule(self, problem: Problem) -> bool:
        """Whether torch's compute is refused inside ``solve`` (rules.py)."""
        return self.track == "kernel" and problem.forbid_library_compute

    def kernel_owner(self, source: str) -> Callable[[str], bool] | None:
        """Which GPU kernel names are the submission's own, for the referee's kernel ledger
        (sandbox/ledger.py) where ``library_rule`` holds; None: the ledger does not judge this
        language (CUDA is checked at link level, Pallas by its static rule)."""
        return None

    def runner_env(self, device: str) -> dict[str, str]:
        """Environment variables the runner process needs for this language on ``device``
        ("cpu" or "cuda"): set when the sandbox starts it, before any language is known (runners
        are started ahead of demand), so every language's variables are set in every runner and
        must not disturb the others (``runner_client.runner_env``)."""
        return {}

    def runs_on_cpu_case(self, problem: Problem, case: Case) -> bool:
        """Whether a CPU worker runs this test case for this language (the others run only on
        a GPU): the problem's ``interpreter`` flag, and the language's own limit."""
        return self.runs_on_cpu and case.interpreter

    def prepare(
        self, source: str, workdir: Path, problem: Problem, *, static_policy: bool, compile_s: float
    ) -> Prepared:
        """In the referee: write the source into ``workdir``, check it, compile it. Raises
        ``runtime.Refused`` with the verdict (compile_error, rejected, not_run)."""
        raise NotImplementedError

    def load(self, path: Path, ctx: RunContext) -> Loaded:
        """In the runner: the prepared file at ``path``, ready to call."""
        raise NotImplementedError

    def generate_starter(self, problem: Problem) -> str:
        """A starter written from ``problem.args``: imports, an empty kernel, and a ``solve``
        that launches it. It compiles and passes the static policy; it computes nothing."""
        raise NotImplementedError

    def starter_path(self, problem: Problem) -> Path:
        """``starter/<starter_stem><suffix>``: see ``starter_stem``."""
        return problem.path / "starter" / f"{self.starter_stem}{self.suffix}"

    def starter(self, problem: Problem) -> str:
        """The problem folder's hand-written starter when there is one, else a generated one."""
        hand = self.starter_path(problem)
        if hand.is_file():
            return hand.read_text(encoding="utf-8")
        return self.generate_starter(problem)

    def signature_line(self, problem: Problem) -> str:
        """The signature as the problem page shows it: ``def solve(a, b):   # Triton``."""
        return f"{self.signature(problem)}{self.declaration_end}   {self.comment} {self.label}"

    def public(self) -> dict[str, Any]:
        """What ``GET /api/v1/languages`` and the editor's page data carry."""
        return {
            "name": self.name,
            "label": self.label,
            "menu_label": self.menu_label,
            "suffix": self.suffix,
            "editor_mode": self.editor_mode,
            "track": self.track,
            "runs_on_cpu": self.runs_on_cpu,
        }

    def __repr__(self) -> str:
        return f"<language {self.name}>"


def shapes_comment(problem: Problem, marker: str) -> str:
    """Comment lines naming each tensor argument's role, dtype and shape."""
    parts = []
    # inout: read and written in place (a sort)
    for role, one, many in (
        ("input", "input", "inputs"),
        ("inout", "in place", "in place"),
        ("output", "output", "outputs"),
    ):
        args = [a for a in problem.args if a.role == role]
        if args:
            described = ", ".join(f"{a.name} [{', '.join(a.shape)}] {a.dtype}" for a in args)
            parts.append(f"{one if len(args) == 1 else many} {described}")
    return f"{marker} {'; '.join(parts)}."
