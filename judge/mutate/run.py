"""Mutation testing of a problem: its accepted samples' mutants, graded side by side.

First every chosen accepted sample is graded as it is (a sample the judge does not accept here
says nothing about its mutants: they are left out and the sample reported). Then each mutant is
graded in "run" mode (tests only, stopping at the first failing case) by a pool of processes,
one per core, each with its own pre-started runner, under a per-mutant time limit: the problem's
``total_s`` cut to ``limit_s``. What each verdict means (``OUTCOMES``):

- ``killed``: any failing verdict (wrong_answer, runtime_error, time_limit_exceeded, ...);
- ``survived``: accepted, and not listed in ``mutants.toml``: a test is missing;
- ``equivalent``: accepted and listed there with a reason;
- ``stillborn``: compile_error or rejected: it never ran, so it says nothing of the tests;
- ``not_run``: compiled, but not run here (CUDA without a GPU);
- ``error``: the judge failed on it (internal_error).

The score is killed ÷ (killed + survived): stillborn, not-run, equivalent and errored mutants
count for nothing. Order and output are deterministic; only the progress lines carry times.
"""

from __future__ import annotations

import functools
import logging
import multiprocessing
import multiprocessing.util
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from judge.mutate import cuda_ops, equivalents, python_ops
from judge.mutate.base import Mutant, build
from judge.problem.schema import Problem, SampleSolution
from judge.sandbox.runner_client import RunnerPool
from judge.verdicts import Verdict

OUTCOMES = ("killed", "survived", "equivalent", "stillborn", "not_run", "error")
# Every operator, in report order: the Python ones, then CUDA's not already named.
OPERATORS = python_ops.OPERATORS + tuple(
    o for o in cuda_ops.OPERATORS if o not in python_ops.OPERATORS
)
_STILLBORN = (Verdict.COMPILE_ERROR, Verdict.REJECTED)
# The automatic per-mutant limit: this many times the sample's own grading, at least MIN_LIMIT_S.
LIMIT_FACTOR = 4.0
MIN_LIMIT_S = 60.0

Progress = Callable[[str], None]
Graded = tuple[str, str, float]  # a grading's verdict, message and seconds


def mutants_of(sample: SampleSolution) -> list[Mutant]:
    """Every mutant of one sample, in operator order, then by position."""
    source = sample.path.read_text(encoding="utf-8")
    if sample.path.suffix == ".cu":
        found = cuda_ops.edits(source, sample.language)
        return build(sample.path.name, sample.language, source, found, cuda_ops.OPERATORS)
    found = python_ops.edits(source, sample.language)
    return build(sample.path.name, sample.language, source, found, python_ops.OPERATORS)


@dataclass(frozen=True)
class Result:
    mutant: Mutant
    outcome: str
    verdict: str
    detail: str  # the grading's message, or the listed reason of an equivalent mutant

    def to_dict(self) -> dict[str, Any]:
        m = self.mutant
        return {
            "id": m.id,
            "sample": m.sample,
            "operator": m.operator,
            "line": m.line,
            "outcome": self.outcome,
            "verdict": self.verdict,
            "diff": m.diff,
            "detail": self.detail,
        }


@dataclass
class Report:
    problem: str
    device: str
    samples: list[dict[str, Any]] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)  # mutants.toml ids that match no mutant
    listed_but_killed: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        counts = {o: 0 for o in OUTCOMES}
        for r in self.results:
            counts[r.outcome] += 1
        return {"mutants": len(self.results), **counts}

    @property
    def score(self) -> float | None:
        c = self.counts()
        counted = c["killed"] + c["survived"]
        return c["killed"] / counted if counted else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "problem": self.problem,
            "device": self.device,
            "score": None if self.score is None else round(self.score, 4),
            "counts": self.counts(),
            "samples": self.samples,
            "mutants": [r.to_dict() for r in self.results],
            "stale_equivalents": self.stale,
            "equivalent_but_killed": self.listed_but_killed,
        }


def classify(verdict: str, listed: str | None) -> str:
    v = Verdict(verdict)
    if v == Verdict.ACCEPTED:
        return "equivalent" if listed is not None else "survived"
    if v in _STILLBORN:
        return "stillborn"
    if v == Verdict.NOT_RUN:
        return "not_run"
    return "error" if v == Verdict.INTERNAL_ERROR else "killed"


# -- the pool's processes ------------------------------------------------------------------
_POOL: RunnerPool | None = None


def _start_worker(device: str) -> None:
    global _POOL
    logging.basicConfig(level=logging.ERROR)
    _POOL = RunnerPool(device)
    multiprocessing.util.Finalize(None, _POOL.close, exitpriority=10)


@functools.lru_cache(maxsize=8)
def _problem(path: str, limit_s: float) -> Problem:
    from judge.problem import loader

    p = loader.load_problem(Path(path))
    return replace(p, limits=replace(p.limits, total_s=min(p.limits.total_s, limit_s)))


def _grade(
    path: str, source: str, language: str, device: str, limit_s: float
) -> tuple[str, str, float]:
    """One grading in a pool process: its verdict, message and seconds."""
    from judge import grader

    t0 = time.monotonic()
    res = grader.grade(
        _problem(path, limit_s),
        source,
        language,
        device=device,
        mode="run",
        pool=_POOL,
        sanitize=False,
        all_cases=False,
    )
    return str(res.verdict), res.message, time.monotonic() - t0


# -- the run -------------------------------------------------------------------------------
def mutate(
    problem: Problem,
    device: str,
    *,
    jobs: int,
    language: str | None = None,
    samples: tuple[str, ...] = (),
    operators: tuple[str, ...] = (),
    limit_s: float | None = None,
    progress: Progress = lambda line: None,
) -> Report:
    """Grade the mutants of ``problem``'s accepted samples (those of ``language``, those named
    in ``samples``) made by ``operators`` (all when empty) on ``device`` ("cpu" or "cuda")."""
    listed = equivalents.load(problem.path)
    report = Report(problem.slug, device)
    chosen = [
        s
        for s in problem.samples
        if s.expected == Verdict.ACCEPTED
        and s.path.parent.name == "accepted"
        and (language is None or s.language == language)
        and (not samples or s.path.name in samples)
    ]
    path = str(problem.path)
    generated: set[str] = set()  # every id of the chosen samples, whatever the operators
    todo: list[tuple[Mutant, Future[Graded]]] = []
    context = multiprocessing.get_context("spawn")  # no forked copy of torch's threads
    with ProcessPoolExecutor(
        jobs, mp_context=context, initializer=_start_worker, initargs=(device,)
    ) as ex:
        originals = [
            ex.submit(_grade, path, _text(s), s.language, device, problem.limits.total_s)
            for s in chosen
        ]
        for s, fut in zip(chosen, originals, strict=True):
            verdict, message, spent = fut.result()
            found = mutants_of(s)
            generated.update(m.id for m in found)
            found = [m for m in found if not operators or m.operator in operators]
            usable = verdict in (Verdict.ACCEPTED, Verdict.NOT_RUN)
            row = {"sample": s.path.name, "language": s.language, "verdict": verdict}
            report.samples.append(
                row | {"mutants": len(found)} | ({} if usable else {"detail": message[:300]})
            )
            progress(f"{s.path.name}: {verdict} as it is ({spent:.0f}s); {len(found)} mutants")
            if usable:
                limit = limit_s or max(MIN_LIMIT_S, LIMIT_FACTOR * spent)
                todo += [
                    (m, ex.submit(_grade, path, m.source, m.language, device, limit)) for m in found
                ]
        verdicts = _collect(todo, progress)
    for m, _ in todo:
        verdict, message, _ = verdicts[m.id]
        reason = listed.get(m.id)
        outcome = classify(verdict, reason)
        if reason is not None and outcome == "killed":
            report.listed_but_killed.append(m.id)
        detail = reason if outcome == "equivalent" and reason else message[:300]
        report.results.append(Result(m, outcome, verdict, detail))
    chosen_names = {s.path.name for s in chosen}
    report.stale = [k for k in listed if k.split(":", 1)[0] in chosen_names and k not in generated]
    return report


def _text(sample: SampleSolution) -> str:
    return sample.path.read_text(encoding="utf-8")


def _collect(todo: list[tuple[Mutant, Future[Graded]]], progress: Progress) -> dict[str, Graded]:
    """Each mutant's (verdict, message) by id, announcing each as it finishes."""
    by_future = {fut: m for m, fut in todo}
    out: dict[str, Graded] = {}
    t0 = time.monotonic()
    for i, fut in enumerate(as_completed(by_future), 1):
        m = by_future[fut]
        try:
            out[m.id] = fut.result()
        except Exception as e:  # a pool process that died: an error, never a kill
            out[m.id] = (str(Verdict.INTERNAL_ERROR), f"the grading process failed: {e!r}", 0.0)
        verdict, _, spent = out[m.id]
        progress(
            f"[{i}/{len(todo)}, {time.monotonic() - t0:.0f}s] {m.id}: "
            f"{classify(verdict, None)} ({verdict}, {spent:.0f}s)"
        )
    return out
