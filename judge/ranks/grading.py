"""The referee of a problem that spans GPUs: N sandboxed runners, one per rank.

``grader.grade`` hands a problem with ``gpus > 1`` here (``attempt``). The source is validated and compiled
once (phases.Session, as for one GPU), then each rank gets a runner of its own in a work folder
of its own, loads the same prepared file, and binds its buffers and its peers' (shared.py) for
every test case; the ranks run one at a time between barriers (schedule.py) and every rank's
outputs and guard bands are checked. Whatever happens, every runner is killed and reaped and
the buffers' files removed before the result is returned. docs/multi-gpu.md.
"""

from __future__ import annotations

import logging
import secrets
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from judge import hostpaths
from judge.checkers import outputs
from judge.phases import RUNNER_START_S, Session
from judge.problem import dtypes, loader
from judge.problem.schema import Case, Problem, ProblemError
from judge.ranks import shared
from judge.ranks.schedule import Rank, late_order, named, run_call
from judge.results import CaseResult, GradeResult
from judge.sandbox import guards, messages
from judge.sandbox.runner_client import (
    RunnerClient,
    RunnerDied,
    RunnerTimeout,
    default_limits,
    runner_env,
)
from judge.session import Grading, Progress, Stop
from judge.verdicts import Verdict

log = logging.getLogger(__name__)

Expected = tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]


def attempt(
    problem: Problem,
    source: str,
    language: str,
    *,
    dev: str,
    mode: str = "submit",
    on_progress: Progress | None = None,
    static_policy: bool = True,
    all_cases: bool = True,
) -> tuple[GradeResult, tuple[float, float] | None]:
    """Grade ``source`` on ``problem.gpus`` ranks: the result, and on the CPU device the limit
    that ran out with the CPU time its rank got (``Grading.timed_out``: grader.py grades once
    more where the machine starved it). Never raises for a bad submission."""
    world = problem.gpus
    if mode == "profile":  # Nsight Compute over N runners is not built yet
        device = "cpu-interpreter" if dev == "cpu" else "cuda"
        why = (
            f"profiling a problem that spans {world} GPUs is not supported yet (docs/multi-gpu.md)"
        )
        return GradeResult(Verdict.NOT_RUN, problem.slug, language, device, why), None
    with tempfile.TemporaryDirectory(prefix="kerneldojo-ranks-") as tmp:
        root = Path(tmp)
        own = root / "referee"  # the buffers' files are made here; no runner sees it
        own.mkdir(mode=0o700)
        dirs = [root / f"rank{r}" for r in range(world)]
        for d in dirs:
            d.mkdir()
            d.chmod(0o777)
        g = Grading(problem, source, language, dev, mode, on_progress or (lambda e: None), dirs[0])
        g.all_cases = all_cases
        g.result.phases["ranks"] = world
        grading = _Ranks(g, own, dirs, static_policy)
        try:
            grading.run()
            g.result.verdict = Verdict.ACCEPTED
        except Stop as s:
            g.result.verdict, g.result.message = s.verdict, s.message
        except Exception as e:  # a bug of ours (or a broken reference.py): never crash the worker
            log.exception("internal error grading %s on %d ranks", problem.slug, world)
            g.result.verdict = Verdict.INTERNAL_ERROR
            g.result.message = f"internal error: {type(e).__name__}: {e}"
        finally:
            g.result.stdout = grading.output()
            with g.timed("cleanup"):
                grading.close()
        hostpaths.scrub(g.result)
        g.progress({"stage": "done", "verdict": str(g.result.verdict)})
        return g.result, g.timed_out


class _Ranks:
    def __init__(self, g: Grading, own: Path, dirs: list[Path], static_policy: bool) -> None:
        self.g, self.own, self.dirs = g, own, dirs
        self.lead = Session(g)  # validates and compiles once; its Cases checks the guards
        self.lead.static_policy = static_policy
        self.sessions: list[Session] = []  # one per rank, each with its runner
        self.first_call = True

    def run(self) -> None:
        g = self.g
        self.lead.validate_source()
        lib = self.lead.compile()
        if g.dev == "cpu" and not g.lang.runs_on_cpu:
            raise Stop(Verdict.NOT_RUN, f"compiled; no GPU on this worker to run {g.lang.label}")
        if g.dev != "cpu":
            raise Stop(
                Verdict.NOT_RUN,
                f"compiled; this problem spans {g.problem.gpus} GPUs, and GPU workers do not "
                "grade such problems yet (CPU workers do: docs/multi-gpu.md)",
            )
        for d in self.dirs[1:]:  # every rank loads the same prepared file from its own folder
            shutil.copy2(self.dirs[0] / lib, d / lib)
        self._start()
        for r, s in enumerate(self.sessions):
            try:
                s.load(lib)
            except Stop as e:
                raise named(r, e) from e
        self._tests()

    def _start(self) -> None:
        g = self.g
        t0 = time.monotonic()
        lim = g.problem.limits
        limits = default_limits(g.dev, lim.host_memory_mb, int(lim.total_s * 2) + 60)
        for d in self.dirs:  # all at once: their imports overlap
            s = Session(g)
            s.channel.runner = RunnerClient(d, g.dev, limits, runner_env(g.dev))
            self.sessions.append(s)
        for r, s in enumerate(self.sessions):
            assert s.channel.runner is not None
            try:
                s.channel.runner.wait_ready(RUNNER_START_S)
            except (RunnerDied, RunnerTimeout) as e:
                raise Stop(
                    Verdict.INTERNAL_ERROR, f"rank {r}: the runner did not start: {e}"
                ) from e
        g.phase("sandbox_start", t0)

    def _tests(self) -> None:
        g, problem = self.g, self.g.problem
        t0 = time.monotonic()
        ref = loader.load_reference(problem)
        cases = [c for c in problem.tests if g.lang.runs_on_cpu_case(problem, c)]
        offset = secrets.randbelow(problem.gpus)  # which rank is late in the first case
        failed = 0
        for i, case in enumerate(cases):
            activity = {"stage": "testing", "index": i + 1, "total": len(cases), "name": case.name}
            g.progress(activity)
            late = (i + offset) % problem.gpus
            ok, message, err, ratio = self._case(ref, case, f"t{i + 1}", late)
            g.result.cases.append(
                CaseResult(
                    case.name, ok, message, err, round(ratio, 4) if ratio is not None else None
                )
            )
            if not ok:
                failed += 1
                if not g.all_cases:
                    break
        g.phase("tests", t0)
        if failed:
            first = next(c for c in g.result.cases if not c.passed)
            counted = (
                f"{failed} of {len(cases)} cases failed"
                if g.all_cases
                else f"case {len(g.result.cases)} of {len(cases)} failed (the rest not run)"
            )
            raise Stop(Verdict.WRONG_ANSWER, f"{counted}; first: {first.name}: {first.message}")

    def _case(
        self, ref: Any, case: Case, key: str, late: int
    ) -> tuple[bool, str, float, float | None]:
        g, problem = self.g, self.g.problem
        with g.timed("tests_make"):
            inputs, expected, scales = make(ref, problem, case, g.dev)
        with g.timed("tests_alloc"):
            rb = shared.alloc(problem, case, g.dev, self.own, self.dirs, key)
        bound = False
        try:
            patterns = [guards.Pattern(g.dev) for _ in self.sessions]
            for r, bufs in enumerate(rb.of):
                for b in bufs.values():  # inputs too: a rank's are its data only once it runs
                    dtypes.poison(b.tensor)
                patterns[r].fill(self.lead.cases.guarded(bufs))
            self._bind(case, key, rb)
            bound = True
            ranks = [Rank(r, s.channel) for r, s in enumerate(self.sessions)]

            def fill(r: int) -> None:
                for a in problem.inputs:
                    rb.of[r][a.name].tensor.copy_(inputs[r][a.name])

            run_call(ranks, late_order(problem.gpus, late), key, fill, self._limit)
            self.first_call = False
            for rank in ranks:
                done = rank.done or {}
                said = done.get("warnings")
                for w in said if isinstance(said, list) else []:
                    g.result.add_warning(w)
                self.lead.cases.findings.add(done.get("findings"), case.name)
            with g.timed("tests_check"):
                return self._check(rb, patterns, expected, scales)
        finally:
            with g.timed("tests_release"):
                if bound:
                    self._unbind(key)
                rb.free()

    def _limit(self) -> float:
        """How long one rank may run until its next barrier or its return: the call limit, plus
        the compile limit in the first call (Triton's JIT, as cases.Cases.call allows)."""
        g, lim = self.g, self.g.problem.limits
        compile_s = lim.compile_s
        if g.dev == "cpu" and not g.lang.jit_on_cpu:
            from judge.sandbox.interpreter import CALL_BUDGET_S

            compile_s = min(compile_s, CALL_BUDGET_S)
        jit = self.first_call and g.lang.jit
        return g.left(lim.call_s + (compile_s if jit else 0.0))

    def _bind(self, case: Case, key: str, rb: shared.RankBuffers) -> None:
        from judge.cases import bind_args

        peers = rb.peers()
        for r, s in enumerate(self.sessions):
            msg = messages.Bind(
                op="bind",
                case=key,
                args=bind_args(self.g.problem, case, rb.of[r]),
                rank=r,
                world=len(self.sessions),
                peers=peers,
            )
            try:
                s.channel.raise_if_error(s.channel.request(30.0, "binding", msg))
            except Stop as e:
                raise named(r, e) from e

    def _unbind(self, key: str) -> None:
        for s in self.sessions:
            runner = s.channel.runner
            if runner is None or runner.proc.popen.poll() is not None:
                continue
            try:
                runner.request(10.0, messages.Unbind(op="unbind", case=key))
            except Exception:  # a hung runner is killed at the end all the same
                log.warning("a rank's runner did not unbind %s", key)

    def _check(
        self,
        rb: shared.RankBuffers,
        patterns: list[guards.Pattern],
        expected: list[dict[str, Any]],
        scales: list[dict[str, Any]],
    ) -> tuple[bool, str, float, float | None]:
        """Every rank's guard bands, then its outputs: the first failure, named by its rank."""
        problem = self.g.problem
        worst, ratio = 0.0, 0.0
        for r, bufs in enumerate(rb.of):
            wrote = patterns[r].check(self.lead.cases.guarded(bufs))
            if wrote:
                return False, f"rank {r}: {wrote}", 0.0, None
            got = {a.name: bufs[a.name].tensor for a in problem.outputs}
            ok, message, err = outputs.check_outputs(problem, got, expected[r], scales[r])
            if not ok:
                if "NaN" in message:  # the poison's bits survive a copy or a sum through it
                    message += (
                        " (a rank's buffers hold this NaN until the rank is called, and its "
                        "outputs until it writes them: the NaN may also come from a peer's "
                        "buffer read before a comm.barrier() that the peer had passed)"
                    )
                return False, f"rank {r}: {message}", err, None
            worst = max(worst, err)
            ratio = max(ratio, outputs.tolerance_ratio(problem, got, expected[r], scales[r]) or 0.0)
        return True, "", worst, ratio if problem.check.checker == "close" else None

    def output(self) -> str:
        """What the submission printed, rank by rank."""
        parts = []
        for r, s in enumerate(self.sessions):
            text = s.channel.runner.output() if s.channel.runner is not None else ""
            if text:
                parts.append(f"--- rank {r} ---\n{text}")
        return "\n".join(parts)

    def close(self) -> None:
        for s in self.sessions:
            s.close()  # kills the runner's whole tree and waits until none of it is left


def make(ref: Any, problem: Problem, case: Case, dev: str) -> Expected:
    """Every rank's inputs from one secret seed, the expected outputs and the error scales, each
    a list with one dict per rank (docs/problem-format.md, 'Problems that span GPUs')."""
    import torch

    world = problem.gpus
    gen = torch.Generator(device=dev)
    gen.manual_seed(secrets.randbits(62))
    device = torch.device(dev)
    inputs = [
        loader.call_generate(ref, problem, case.params, case.kind, gen, device)
        for _ in range(world)
    ]
    expected = ref.reference(
        [{k: v.clone() for k, v in d.items()} for d in inputs], dict(case.params)
    )
    _per_rank(problem, expected, "reference")
    scale_fn = getattr(ref, "error_scale", None)
    scales = scale_fn(inputs, dict(case.params), expected) if scale_fn else [{} for _ in inputs]
    _per_rank(problem, scales, "error_scale")
    return inputs, expected, scales


def _per_rank(problem: Problem, value: Any, fn: str) -> None:
    if not (isinstance(value, list) and len(value) == problem.gpus) or not all(
        isinstance(d, dict) for d in value
    ):
        raise ProblemError(
            problem.path / "reference.py",
            fn,
            f"with gpus = {problem.gpus} it must return a list of {problem.gpus} dicts, one per rank",
        )
