"""What this server can do with a submission, said before Submit and on the result.

A GPU kind of ``cpu`` is a worker without a GPU: a language that ``runs_on_cpu`` (Triton, under
its interpreter) gets its correctness checked, without timing; any other (CUDA) is compiled and
answered ``not_run``. Test cases marked ``interpreter = false`` in problem.toml run only on a
GPU. The problem page, the editor and the submission page read these instead of guessing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from judge import languages
from judge.problem.schema import Problem

CPU = "cpu"
Support = Literal["gpu", "interpreter", "compile_only"]


def support(language: str, gpu_kind: str) -> Support:
    """How a submission in ``language`` is graded on a worker of ``gpu_kind``."""
    if gpu_kind != CPU:
        return "gpu"
    lang = languages.get(language)
    return "interpreter" if lang is not None and lang.runs_on_cpu else "compile_only"


def note(language: str, gpu_kind: str) -> str:
    """One sentence on what a submission will get, shown beside Run and Submit."""
    lang = languages.get(language)
    label = lang.label if lang else language
    s = support(language, gpu_kind)
    if s == "gpu":
        return f"{label} is tested, timed and ranked on a GPU ({gpu_kind.upper()})."
    if s == "interpreter":
        return (
            f"No GPU on this server: {label} is tested on the CPU under its interpreter "
            "(correctness only, no timing)."
        )
    return (
        f"No GPU on this server: {label} is only compiled here, not run, so no test can pass. "
        "Write Triton to be tested here, or use a server with a GPU."
    )


def editor_data(
    gpu_kinds: list[str], unavailable: Mapping[str, Mapping[str, str]] | None = None
) -> dict[str, dict[str, dict[str, Any]]]:
    """Per GPU kind and language: its support and note, for the editor's page data; and
    whether the kind's workers can grade it now (``unavailable``: kind -> language -> reason,
    app/workers.py), the editor's menu disabling a language they cannot."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for kind in gpu_kinds:
        missing = (unavailable or {}).get(kind, {})
        out[kind] = {}
        for lang in languages.all():
            reason = missing.get(lang.name)
            out[kind][lang.name] = {
                "support": support(lang.name, kind),
                "note": note(lang.name, kind),
                "available": reason is None,
                "reason": unavailable_note(lang.label, reason) if reason is not None else "",
            }
    return out


def unavailable_note(label: str, reason: str) -> str:
    """What the editor says of a language the workers cannot grade now, and why."""
    return f"{label} is not available on this server's GPU workers right now: {reason}"


@dataclass(frozen=True)
class Coverage:
    """Which of a problem's test cases a grading runs: all on a GPU; on the CPU, those the
    interpreter can take (``gpu_only`` names the others). A failing case stops a grading
    early, so the result may list fewer than ``run``."""

    total: int
    run: int
    gpu_only: tuple[str, ...]

    @property
    def partial(self) -> bool:
        return bool(self.gpu_only)

    def summary(self) -> str:
        return (
            f"{self.run} of {self.total} tests run on the CPU interpreter; "
            f"{len(self.gpu_only)} run only on a GPU"
        )


def gpu_only_cases(problem: Problem, language: str | None = None) -> tuple[str, ...]:
    """The test cases a CPU worker does not run (for ``language``: the language's own limit,
    e.g. Numba's simulator takes small cases only)."""
    lang = languages.get(language) if language else None
    if lang is None:
        return tuple(t.name for t in problem.tests if not t.interpreter)
    return tuple(t.name for t in problem.tests if not lang.runs_on_cpu_case(problem, t))


def coverage(
    problem: Problem | None, gpu_kind: str, result: dict[str, Any], language: str | None = None
) -> Coverage | None:
    """The coverage of a finished grading, or None when every case ran (or none could)."""
    if problem is None or gpu_kind != CPU or not result.get("cases"):
        return None
    gpu_only = gpu_only_cases(problem, language)
    if not gpu_only:
        return None
    total = len(problem.tests)
    return Coverage(total=total, run=total - len(gpu_only), gpu_only=gpu_only)
