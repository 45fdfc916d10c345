"""Typed results of a grading; ``GradeResult.to_dict`` is the ``--json`` contract."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from judge.profile.report import ProfileReport, SanitizerReport
from judge.verdicts import Verdict

MAX_WARNINGS = 20
MAX_WARNING_CHARS = 600


@dataclass
class CompileResult:
    ok: bool
    log: str = ""
    seconds: float = 0.0


@dataclass
class CaseResult:
    name: str
    passed: bool
    message: str = ""
    max_abs_error: float | None = None
    # A passing float case: its worst error over the error allowed there (checker.tolerance_ratio).
    tol_ratio: float | None = None


@dataclass
class BenchResult:
    name: str
    median_ms: float
    runs: int
    # Spread of the timed runs: interquartile range and relative standard error of the mean.
    iqr_ms: float
    rse_pct: float
    min_ms: float
    max_ms: float
    gbps: float
    tflops: float
    sol_ms: float
    sol_pct: float
    bound: str
    # Referee's own host-clock measurement of the same calls, for the forgery cross-check.
    wall_median_ms: float | None = None
    # Timed calls whose time came from the referee's own clock (gate.py) rather than the runner's
    # events, which read less than the GPU work the referee measured (timing.referee_floor), and
    # the median of the referee's floor less the runner's time.
    referee_calls: int = 0
    referee_gap_us: float | None = None
    # The problem's torch baseline (torch/cuBLAS/SDPA) on this GPU, same protocol.
    baseline_ms: float | None = None
    clocks: dict[str, Any] = field(default_factory=dict)


# GradeResult.phases: the grading's stages, one after another, in order (their seconds add up
# to nearly all of the grading's wall time), and the parts timed inside some of them (already
# counted in their stage). Other keys are counts and flags (source_cache_hit, precompile_*, tle_retried,
# tle_first_cpu_s), not times to add.
STAGES = (
    "compile",
    "sandbox_start",
    "settle",
    "calibrate",
    "load",
    "precompile",
    "tests",
    "benchmark",
    "source_cache_store",
    "cleanup",
)
PARTS = {
    "sandbox_start": ("cuda_init",),
    "tests": ("tests_make", "tests_alloc", "first_launch", "tests_check", "tests_release"),
    "benchmark": ("clocks", "ceilings_again", "baseline"),
}


@dataclass
class GradeResult:
    verdict: Verdict
    problem: str
    language: str
    device: str
    message: str = ""
    compile: CompileResult | None = None
    cases: list[CaseResult] = field(default_factory=list)
    benchmark: list[BenchResult] = field(default_factory=list)
    # Seconds spent in each phase (sandbox start, compile, tests, benchmark, ...): the STAGES,
    # one after another, and their PARTS inside them; a few counts and flags besides.
    phases: dict[str, float] = field(default_factory=dict)
    stdout: str = ""
    # Notes on a verdict that a GPU might not share, e.g. from the CPU interpreter: a kernel it
    # could not check against the GPU's limits (interpreter.py). Shown with the result.
    warnings: list[str] = field(default_factory=list)
    # Profile mode's figures and hints; a sanitizer's findings on a failure or on demand
    # (profile/). Neither changes the verdict.
    profile: ProfileReport | None = None
    sanitizer: SanitizerReport | None = None

    @property
    def score_ms(self) -> float | None:
        """Geometric mean of benchmark medians: what leaderboards rank by."""
        if not self.benchmark:
            return None
        prod = 1.0
        for b in self.benchmark:
            prod *= b.median_ms
        return float(prod ** (1.0 / len(self.benchmark)))

    def add_warning(self, text: object) -> None:
        """Keep a warning from the runner, which is untrusted: strings only, each once, capped."""
        if not isinstance(text, str) or len(self.warnings) >= MAX_WARNINGS:
            return
        text = text[:MAX_WARNING_CHARS]
        if text.strip() and text not in self.warnings:
            self.warnings.append(text)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["verdict"] = str(self.verdict)
        d["score_ms"] = self.score_ms
        return d
