"""The judge's self-test: every registered language grades a known-good sample once.

A worker runs it when it starts (worker/selftest.py) and ``kerneldojo doctor`` on demand. A
language whose known-good sample does not get its expected verdict is *unavailable* on this
host: its libraries are broken here (numba-cuda calling a NumPy function NumPy 2.5 removed), not
the learner's code, so the web app answers its submissions "not available" instead of blaming
them with a runtime error.

Per language, in two passes so that a broken import is known within seconds:
1. its packages are imported (``packages``: numba, jax, ...); an import that raises is the
   error, with the library's file named package-relative (never the host's site-packages path);
2. the known-good sample is graded in ``run`` mode (tests only): the first accepted sample of
   the ``vector-add`` problem written in the language, ``<name>_simple<suffix>`` first. It must
   be ``accepted``; on the CPU a language that runs only on a GPU (CUDA) must compile and be
   ``not_run`` (a ``compile_error`` there is a fault of the host's nvcc).

A language without a known-good sample is ``untested``, which, like ``testing``, counts as
available: only a failed self-test makes a language unavailable.
"""

from __future__ import annotations

import importlib
import logging
import os
import sys
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from judge import environment, hostpaths, languages
from judge.languages.base import Language
from judge.problem import loader
from judge.problem.schema import Problem, ProblemError, SampleSolution
from judge.verdicts import Verdict

log = logging.getLogger(__name__)

SAMPLE_PROBLEM = "vector-add"
OK, UNAVAILABLE, UNTESTED, TESTING = "ok", "unavailable", "untested", "testing"
ERROR_CHARS = 600  # an error is a diagnosis, not a log: its first lines


@dataclass
class LanguageStatus:
    name: str
    label: str
    status: str = TESTING
    verdict: str | None = None
    error: str = ""
    seconds: float = 0.0
    sample: str = ""  # problem-relative: vector-add/solutions/accepted/numba_simple.py

    @property
    def available(self) -> bool:
        return self.status != UNAVAILABLE

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Report:
    device: str
    environment: dict[str, Any]
    languages: list[LanguageStatus] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return all(s.available for s in self.languages)

    def to_dict(self) -> dict[str, Any]:
        return {
            "device": self.device,
            "environment": self.environment,
            "languages": [s.to_dict() for s in self.languages],
            "seconds": self.seconds,
            "ok": self.ok,
        }


def scrub(text: str) -> str:
    """``text`` naming no folder of the host: library paths package-relative (hostpaths), and a
    folder on ``sys.path`` that is not a site-packages (PYTHONPATH) cut off too."""
    text = hostpaths.relative(text)
    roots = sorted({os.path.abspath(p) for p in sys.path if p and os.path.isabs(p)}, key=len)
    for root in reversed(roots):  # the longest first: a package inside another root
        if root != os.sep:
            text = text.replace(root + os.sep, "")
    return text


def describe(e: BaseException, what: str) -> str:
    """One line: what failed, the exception, and the library file and line that raised it."""
    frames = [f for f in traceback.extract_tb(e.__traceback__) if not f.filename.startswith("<")]
    where = ""
    if frames:
        last = frames[-1]
        where = f" (raised in {scrub(last.filename)}, line {last.lineno}, in {last.name})"
    first = str(e).strip().splitlines()[0] if str(e).strip() else ""
    return _short(f"{what}: {type(e).__name__}: {scrub(first)}{where}")


def _short(text: str) -> str:
    text = text.strip()
    return text if len(text) <= ERROR_CHARS else text[: ERROR_CHARS - 1] + "…"


def modules(lang: Language) -> tuple[str, ...]:
    """The packages a language's submissions import (its ``packages``), sorted."""
    return tuple(sorted(getattr(lang, "packages", ()) or ()))


def import_error(lang: Language) -> str | None:
    """Why one of the language's packages does not import here, or None."""
    for name in modules(lang):
        try:
            importlib.import_module(name)
        except (Exception, SystemExit) as e:  # a library's import may raise anything
            return describe(e, f"import {name}")
    return None


def sample_problem() -> Problem:
    """``vector-add`` from the problems folder, else the repository's own copy (a class server
    may serve a folder of its own problems)."""
    try:
        return loader.resolve(SAMPLE_PROBLEM)
    except ProblemError:
        return loader.load_problem(loader.REPO_PROBLEMS / SAMPLE_PROBLEM)


def known_good(problem: Problem, lang: Language) -> SampleSolution | None:
    """The language's accepted sample of ``problem``, ``<name>_simple<suffix>`` first."""
    accepted = [
        s for s in problem.samples if s.language == lang.name and s.expected == Verdict.ACCEPTED
    ]
    simple = f"{lang.name}_simple{lang.suffix}"
    return next((s for s in accepted if s.path.name == simple), accepted[0] if accepted else None)


def expected_verdict(lang: Language, device: str) -> Verdict:
    """What a known-good sample must get here: ``not_run`` for a GPU-only language on the CPU."""
    return Verdict.NOT_RUN if device == "cpu" and not lang.runs_on_cpu else Verdict.ACCEPTED


def grade_sample(
    status: LanguageStatus, lang: Language, problem: Problem, device: str, pool: Any = None
) -> None:
    """Grade the known-good sample and set ``status`` from its verdict."""
    from judge import grader

    sample = known_good(problem, lang)
    if sample is None:
        status.status = UNTESTED
        status.error = f"no accepted {lang.label} sample in {problem.slug} to test it with"
        return
    status.sample = f"{problem.slug}/{sample.path.relative_to(problem.path).as_posix()}"
    want = expected_verdict(lang, device)
    try:
        result = grader.grade(
            problem,
            sample.path.read_text(encoding="utf-8"),
            lang.name,
            device=device,
            mode="run",
            pool=pool,
            sanitize=False,
            all_cases=False,
        )
    except Exception as e:  # the grader never raises for a submission: this is the host's
        status.status, status.error = UNAVAILABLE, describe(e, "grading its known-good sample")
        return
    status.verdict = str(result.verdict)
    if result.verdict == want:
        status.status = OK
        return
    failed = next((c for c in result.cases if not c.passed and c.message), None)
    detail = result.message or (f"{failed.name}: {failed.message}" if failed else "")
    status.status = UNAVAILABLE
    status.error = _short(
        scrub(f"its known-good sample {status.sample} got {result.verdict}, not {want}: {detail}")
    )


def chosen(names: Iterable[str] | None) -> list[Language]:
    """The registered languages named (all of them for None); ValueError for an unknown name."""
    if names is None:
        return list(languages.all())
    return [languages.require(n) for n in names]


def run(
    device: str = "auto",
    names: Iterable[str] | None = None,
    on_status: Callable[[LanguageStatus], None] | None = None,
    on_environment: Callable[[dict[str, Any]], None] | None = None,
    pool: Any = None,
) -> Report:
    """The self-test on ``device`` ("auto", "cuda" or "cpu"): the environment, then each
    language's status; ``on_status`` hears every change (a worker stores each as it comes)."""
    from judge.grader import resolve_device

    t0 = time.monotonic()
    langs = chosen(names)
    dev = resolve_device(device)
    report = Report(dev, environment.report(dev))
    if on_environment is not None:
        on_environment(report.environment)
    tell = on_status or (lambda s: None)
    report.languages = [LanguageStatus(lang.name, lang.label) for lang in langs]
    pending = []
    for lang, status in zip(langs, report.languages, strict=True):
        t = time.monotonic()
        error = import_error(lang)
        status.seconds = round(time.monotonic() - t, 2)
        if error is None:
            pending.append((lang, status))
            continue
        status.status, status.error = UNAVAILABLE, error
        log.warning("self-test: %s is unavailable here: %s", lang.label, error)
        tell(status)
    try:
        problem: Problem | None = sample_problem()
    except (ProblemError, OSError) as e:
        problem, why = None, scrub(f"no known-good samples: {e}")
    for lang, status in pending:
        t = time.monotonic()
        if problem is None:
            status.status, status.error = UNTESTED, why
        else:
            grade_sample(status, lang, problem, dev, pool)
        status.seconds = round(status.seconds + time.monotonic() - t, 2)
        if status.status == UNAVAILABLE:
            log.warning("self-test: %s is unavailable here: %s", lang.label, status.error)
        tell(status)
    report.seconds = round(time.monotonic() - t0, 2)
    return report
