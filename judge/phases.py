"""One grading's phases, in order: validate, compile, start the runner (and calibrate on a GPU),
load, precompile, tests, benchmarks (``Session``). ``grader.grade`` makes one and runs it; the
profile's tool runs (profile/toolrun.py) make their own, so this module imports nothing of
profile/ and grader.py imports both.
"""

from __future__ import annotations

import logging
import time

from judge import hostpaths, languages
from judge.build import autotune, precompile, sourcecache
from judge.cases import Cases
from judge.languages.runtime import Refused
from judge.limits import MAX_SOURCE_BYTES
from judge.results import GradeResult
from judge.sandbox import gpumem, messages
from judge.sandbox.channel import Channel, count
from judge.sandbox.runner_client import (
    RunnerClient,
    RunnerDied,
    RunnerPool,
    RunnerTimeout,
    default_limits,
    runner_env,
)
from judge.session import Grading, Stop
from judge.timing import bench, calibration
from judge.verdicts import Verdict

log = logging.getLogger(__name__)

RUNNER_START_S = 120.0


class Session:
    """One grading's phases, in order: validate, compile, start the runner (and calibrate on a
    GPU), load, precompile, tests, benchmarks."""

    def __init__(self, g: Grading) -> None:
        self.g = g
        self.channel = Channel(self.g)
        self.cases = Cases(self.g, self.channel)
        self.cal = calibration.Calibration()  # measured on a GPU by _start_runner
        self.pool: RunnerPool | None = None
        self.static_policy = True
        self.source_key = ""  # sourcecache.key, for a Triton submission on a GPU

    def run(self) -> GradeResult:
        g = self.g
        try:
            self.validate_source()
            lib = self.compile()
            if g.dev == "cpu" and not g.lang.runs_on_cpu:
                raise Stop(
                    Verdict.NOT_RUN, f"compiled; no GPU on this worker to run {g.lang.label}"
                )
            self._start_runner()
            self.load(lib)
            self._precompile()
            self.cases.run_tests()
            if g.mode == "submit" and g.dev == "cuda":
                if self.pool is not None:
                    # No runner of the pool may be creating a CUDA context while timing.
                    with g.timed("settle"):
                        self.pool.settle(RUNNER_START_S, warm=False)
                bench.Bench(g, self.channel, self.cases, self.cal).run()
            g.result.verdict = Verdict.ACCEPTED
        except Stop as s:
            g.result.verdict, g.result.message = s.verdict, s.message
        if self.channel.runner is not None:
            g.result.stdout = self.channel.runner.output()
        hostpaths.scrub(g.result)  # no host paths in what the learner reads
        g.progress({"stage": "done", "verdict": str(g.result.verdict)})
        return g.result

    def validate_source(self) -> None:
        g = self.g
        lang = languages.get(g.language)
        if lang is None:
            raise Stop(
                Verdict.COMPILE_ERROR,
                f"unknown language {g.language!r}: use one of {', '.join(languages.names())}",
            )
        g.lang = lang
        if not g.source.strip():
            raise Stop(Verdict.COMPILE_ERROR, "the submission is empty")
        if len(g.source.encode()) > MAX_SOURCE_BYTES:
            raise Stop(
                Verdict.COMPILE_ERROR, f"the submission is larger than {MAX_SOURCE_BYTES >> 10} KiB"
            )

    def compile(self) -> str:
        """The language's ``prepare`` (languages/): the file the runner loads."""
        g = self.g
        g.progress({"stage": "compiling"})
        try:
            prep = g.lang.prepare(
                g.source,
                g.workdir,
                g.problem,
                static_policy=self.static_policy,
                compile_s=g.problem.limits.compile_s,
            )
        except Refused as r:
            if r.compile is not None:
                g.result.compile = r.compile
            if r.compile_s is not None:
                g.result.phases["compile"] = round(r.compile_s, 4)
            raise Stop(Verdict(r.verdict), r.message) from r
        g.result.compile = prep.compile
        if prep.compile_s is not None:
            g.result.phases["compile"] = round(prep.compile_s, 4)
        return prep.path

    def _start_runner(self) -> None:
        g, ch = self.g, self.channel
        t0 = time.monotonic()
        if ch.runner is None:
            limits = default_limits(
                g.dev,
                g.problem.limits.host_memory_mb,
                int(g.problem.limits.total_s * 2) + 60,
            )
            ch.runner = RunnerClient(g.workdir, g.dev, limits, runner_env(g.dev))
        runner = ch.runner
        try:
            runner.wait_ready(RUNNER_START_S)
        except (RunnerDied, RunnerTimeout) as e:
            raise Stop(Verdict.INTERNAL_ERROR, f"the runner did not start: {e}") from e
        g.phase("sandbox_start", t0)
        if runner.init_s is not None:  # done ahead of demand with a pool: not waited for
            g.result.phases["cuda_init"] = runner.init_s
        if g.dev == "cuda":
            if self.pool is not None and g.mode == "submit":
                # The calibration's pings are subtracted from every timed call: no spare may be
                # creating its CUDA context meanwhile (one a previous grading's end let start;
                # a tool's spare takes longest, profile/spare.py).
                with g.timed("settle"):
                    self.pool.settle(RUNNER_START_S, warm=False)
            with g.timed("calibrate"):
                self.cal = calibration.calibrate(g, ch)
            ch.meter = gpumem.Meter(runner.proc.tree())
            if not ch.meter.per_process and self.pool is not None:
                # the device-wide reading: no spare runner may be creating its context meanwhile
                self.pool.settle(RUNNER_START_S, warm=False)
                ch.meter = gpumem.Meter(runner.proc.tree())

    def load(self, lib: str) -> None:
        g, ch = self.g, self.channel
        t0 = time.monotonic()
        ch.arm_ledger(g.lang.kernel_owner(g.source) if g.lang.library_rule(g.problem) else None)
        msg = ch.request(
            g.problem.limits.compile_s,
            "loading",
            messages.Load(
                op="load",
                language=g.language,
                path=lib,
                argtypes=["ptr" if a.is_tensor else "int" for a in g.problem.args],
                roles=[a.role for a in g.problem.args],
                forbid_library=g.lang.library_rule(g.problem),
                gpu_budget_mb=g.problem.gpu_budget_mb(),
                source_cache=self._source_cache(),
            ),
        )
        g.phase("load", t0)
        ch.raise_if_error(msg)
        ch.check_memory("once loaded")

    def _source_cache(self) -> str | None:
        """The folder of this source's compiled kernels, if an earlier grading left one."""
        g = self.g
        if not g.lang.precompiles or g.dev != "cuda":
            return None
        self.source_key = sourcecache.key(g.problem.slug, g.source, g.result.device)
        hit = sourcecache.folder(self.source_key) is not None
        g.result.phases["source_cache_hit"] = int(hit)
        return self.source_key if hit else None

    def _precompile(self) -> None:
        """A Triton submission compiles the kernels of every case at once, in parallel, before
        its first test (precompile.py); under the compile limit. Only speed: a failure here is
        not a verdict (the real calls compile what is missing and fail as they would)."""
        g, ch = self.g, self.channel
        if not (g.lang.precompiles or g.lang.compiles_ahead) or g.dev != "cuda":
            return
        p = g.problem
        bench_cases = p.benchmarks if g.mode == "submit" else []
        cases = [precompile.placeholder(p, c, autotune.TUNE_FIRST) for c in p.tests]
        cases += [precompile.placeholder(p, c, autotune.TUNE_FULL) for c in bench_cases]
        g.progress({"stage": "compiling"})
        ch.activity = {"stage": "compiling"}
        t0 = time.monotonic()
        try:
            msg = ch.request(
                p.limits.compile_s, "compiling", messages.Precompile(op="precompile", cases=cases)
            )
        finally:
            ch.activity = None
            g.phase("precompile", t0)
        log.info("precompiled: %s", str(msg)[:400])
        if msg.get("op") == "precompiled":
            for k in (
                "kernels",
                "failed",
                "pending",
                "cases_cut_short",
                "host_ms",
                "wait_ms",
                "threads",
            ):
                g.result.phases[f"precompile_{k}"] = count(msg.get(k))
        else:
            log.info("precompile answered %s", str(msg)[:200])

    def close(self) -> None:
        self.channel.close()
