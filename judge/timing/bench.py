"""Benchmark timing on a GPU: each case's timed calls, checked and cross-checked.

Every timed call is a checked call (fresh inputs, outputs checked, poison probed at secret
positions when the referee's clock stops, outputs watched for late writes on a secret random
call); the runner's CUDA-event times are taken only where the referee's own clock, its gate
bracket (gate.py) and the GPU's measured speed of light (measure.py) agree with them.
"""

from __future__ import annotations

import logging
import secrets
import statistics
import time
from typing import Any

from judge import device
from judge.build import autotune
from judge.cases import Cases
from judge.problem import dtypes
from judge.problem.schema import Case
from judge.results import BenchResult
from judge.sandbox import buffers, messages
from judge.sandbox.channel import Channel
from judge.session import Grading, Stop
from judge.timing import baseline, clock, measure, sampled
from judge.timing.calibration import Calibration, Settling
from judge.verdicts import Verdict

log = logging.getLogger(__name__)

BENCH_BUDGET_S = 2.5
SNAPSHOT_ONE_IN = 8
# No honest kernel beats the measured ceilings by 25% (a read-only kernel can exceed the
# read+write copy bandwidth by a few percent, not more).
SOL_GUARD = 0.8
# The referee's wall clock around one timed call (pipe, SIGCONT/SIGSTOP, the GPU's switch between
# two processes' contexts) ran 0.5-1.5 ms above its calibrated overhead on an H100, call after call:
# it resolves forgeries of milliseconds, not of microseconds. Below that, SOL_GUARD bounds a lie.
WALL_SLACK_MS = 2.0
# A case whose every wall disagrees with its GPU time is timed again after this pause.
WALL_RECHECK_PAUSE_S = 0.5
WALL_RECHECK_CALLS = 5


class Bench:
    """The benchmarks of one grading, after the tests passed and the referee calibrated."""

    def __init__(self, g: Grading, ch: Channel, cases: Cases, cal: Calibration) -> None:
        self.g, self.ch, self.cases, self.cal = g, ch, cases, cal
        self.timed_calls = 0

    def run(self) -> None:
        """Every benchmark case, timed; the whole result appended to the grading's."""
        import torch

        t0 = time.monotonic()
        flusher = self.cal.flusher or measure.L2Flusher.shared()
        cases = self.g.problem.benchmarks
        for i, case in enumerate(cases, 1):
            self.ch.activity = {
                "stage": "benchmarking",
                "index": i,
                "total": len(cases),
                "name": case.name,
            }
            self.g.progress(self.ch.activity)
            key = f"b{i}"
            with self.cases.referee_memory():
                bufs = self.cases.alloc(case, key, keep=True)
            try:
                res = self._bench_case(case, key, bufs, flusher)
                self.ch.check_memory(f"in benchmark {case.name!r}")
                if res.clocks.get("throttled"):  # measured under throttling: measure once more
                    log.warning("throttled during %s; re-measuring", case.name)
                    res = self._bench_case(case, key, bufs, flusher)
            except BaseException:
                self.cases.release(key, bufs, unbind=False)
                raise
            self.cases.release(key, bufs)
            torch.cuda.empty_cache()
            self.g.result.benchmark.append(res)
        self.ch.activity = None
        self.g.phase("benchmark", t0)

    def _timed_call(
        self,
        key: str,
        bufs: dict[str, buffers.SharedBuffer],
        case: Case,
        flusher: measure.L2Flusher | None,
        settle: Settling | None = None,
    ) -> tuple[tuple[float, float], float, float | None, float]:
        """One checked call: (the runner's ends (``_ends``), referee's wall ms, the SM clock
        across the call as the runner read it, the referee's floor: its gate bracket less the
        calibrated one of an empty call).

        With ``settle``, the referee's own GPU work for the call done, the call waits for the
        GPU's clock (clock.py) before it is let go."""
        import torch

        inputs, expected, scales = self.cases.make_case(case, timed=True)
        self.cases.fill(bufs, inputs)
        if flusher is not None:
            flusher.flush()
        torch.cuda.synchronize()
        if settle is not None and self.cal.clock is not None:
            settle.add(self.cal.clock.settle(min(clock.MAX_WAIT_S, settle.left())))
        assert self.ch.runner is not None
        # The clock starts while the runner is still frozen and the call is already in its pipe:
        # nothing the submission does after the thaw escapes the referee's wall clock.
        gated = self._probe_positions(bufs, expected)
        at_end: list[Any] = []
        t = time.perf_counter()
        msg, bracket, launch = self.ch.gated(
            self.g.left(self.g.problem.limits.call_s),
            "running",
            messages.Call(op="call", case=key, timed=True),
            probe=lambda: at_end.extend(o[i] for o, i, _ in gated),
        )
        wall = (time.perf_counter() - t) * 1e3
        self.ch.runner.freeze()
        self.ch.done(msg)
        if bracket is None:
            raise Stop(
                Verdict.REJECTED,
                f"benchmark {case.name}: the call never signalled its end on the GPU "
                "(the harness was interfered with)",
            )
        # At once, before anything else: outputs at secret positions. A "done" sent before the
        # work finished (a forged message, work left on another stream) shows as poison here;
        # so do outputs read on the referee's own stream the moment its clock stopped.
        probes = self._probe(bufs, expected)
        probes += [v[finite] for v, (_, _, finite) in zip(at_end, gated, strict=True)]
        snapshot = {a.name: bufs[a.name].tensor.clone() for a in self.g.problem.outputs}
        ok, message, _ = self.cases.check(bufs, expected, scales)
        if not ok:
            raise Stop(
                Verdict.WRONG_ANSWER,
                f"benchmark {case.name}: a timed run gave a wrong result: {message}",
            )
        if any(bool(dtypes.unwritten(p).any()) for p in probes):
            raise Stop(
                Verdict.REJECTED,
                f"benchmark {case.name}: outputs were still unwritten when solve reported "
                "completion (work finished outside the timed call)",
            )
        self.timed_calls += 1
        log.debug("SM GHz across the call, least and most of the SMs: %s", msg.get("sm_ghz_range"))
        ghz = msg.get("sm_ghz")
        in_call = float(ghz) if isinstance(ghz, float) and 0.1 < ghz < 10 else None
        floor = bracket - self.cal.gate_ms
        log.debug("gate: bracket %.4f ms, launch %.4f ms", bracket, launch)
        if self.timed_calls > 3 and secrets.randbelow(SNAPSHOT_ONE_IN) != 0:
            return ends(msg), wall, in_call, floor
        # The runner is frozen: outputs that still change now are written by GPU work it left
        # running. Waiting costs twice the call, so after the first calls it is done on a secret
        # random one in SNAPSHOT_ONE_IN: work left running on every call is caught all the same.
        torch.cuda.synchronize()
        time.sleep(max(0.001, 2 * wall / 1e3))
        for a in self.g.problem.outputs:
            # Bit for bit: an output may rightly keep NaN poison where nothing is to be written
            # (stream compaction's tail past count), and NaN never equals itself.
            if not torch.equal(
                snapshot[a.name].view(torch.uint8), bufs[a.name].tensor.view(torch.uint8)
            ):
                raise Stop(
                    Verdict.REJECTED,
                    f"benchmark {case.name}: outputs kept changing after solve "
                    "returned (work left running outside the timed call)",
                )
        return ends(msg), wall, in_call, floor

    def _probe_positions(
        self, bufs: dict[str, buffers.SharedBuffer], expected: dict[str, Any]
    ) -> list[tuple[Any, Any, Any]]:
        """(flat output, secret positions, where an unwritten value would show) for each output
        but in-place ones (never poisoned): read on the gate's stream when the referee's clock
        stops (``Channel.gated``)."""
        import torch

        out = []
        for a in self.g.problem.outputs:
            if a.role == "inout":
                continue
            flat = bufs[a.name].tensor.view(-1)
            exp = expected[a.name]
            if isinstance(exp, sampled.Sampled):
                idx, finite = sampled.probe_positions(flat, exp, 64)
                out.append((flat, idx, finite))
                continue
            idx = torch.randint(0, flat.numel(), (64,), device=flat.device)
            shows = dtypes.checkable(exp.reshape(-1).to(flat.device)[idx], a.dtype)
            out.append((flat, idx, shows))
        return out

    def _probe(self, bufs: dict[str, buffers.SharedBuffer], expected: dict[str, Any]) -> list[Any]:
        """Copies of a few outputs at random positions where an unwritten value would show."""
        return [out[idx][finite] for out, idx, finite in self._probe_positions(bufs, expected)]

    def _wall_again(
        self,
        key: str,
        bufs: dict[str, buffers.SharedBuffer],
        case: Case,
        flusher: measure.L2Flusher,
    ) -> float:
        """The referee's wall time of the case once more, after a pause: the least of
        ``WALL_RECHECK_CALLS`` calls, less the calibrated overhead (a stall only adds time)."""
        self.g.result.phases["wall_rechecks"] = self.g.result.phases.get("wall_rechecks", 0) + 1
        time.sleep(WALL_RECHECK_PAUSE_S)
        walls = [self._timed_call(key, bufs, case, flusher)[1] for _ in range(WALL_RECHECK_CALLS)]
        log.warning("%s: wall re-check %s ms", case.name, [round(w, 3) for w in walls])
        return min(walls) - self.cal.overhead_ms

    def _roofline_ms(self, flops: float, nbytes: float, again: bool = False) -> tuple[float, float]:
        """The least time a case's work can take on this GPU as (memory, compute) ms: its bytes
        at the copy ceiling, its FLOPs at its compute unit's (``again``: ceilings re-measured)."""
        bw = measure.ceiling("copy", again=again)
        peak = measure.ceiling(self.g.problem.roofline.compute, again=again) if flops else 0.0
        return nbytes / bw * 1e3, (flops / peak * 1e3 if peak else 0.0)

    def _bench_case(
        self,
        case: Case,
        key: str,
        bufs: dict[str, buffers.SharedBuffer],
        flusher: measure.L2Flusher,
    ) -> BenchResult:
        # Warm-up on other inputs. The first call is untimed and gets the compile limit: JIT and
        # autotuning at this case's shapes (an autotuner synchronizes inside solve).
        inputs, expected, scales = self.cases.make_case(case)
        self.cases.fill(bufs, inputs)
        self.cases.sync()
        self.cases.call(key, new_shapes=True, tune=autotune.TUNE_FULL)
        ok, message, _ = self.cases.check(bufs, expected, scales)
        if not ok:
            raise Stop(Verdict.WRONG_ANSWER, f"benchmark {case.name}: {message}")
        for _ in range(2):  # then timed ones: caches, clocks
            self._timed_call(key, bufs, case, None)
        with self.g.timed("clocks"):
            clocks_before = device.clocks()
        ends: list[tuple[float, float]] = []
        walls: list[float] = []
        floors: list[float] = []
        in_call: list[float] = []
        settling = Settling()
        start = time.monotonic()
        while len(ends) < measure.MAX_RUNS:
            pair, wall, ghz, floor = self._timed_call(key, bufs, case, flusher, settling)
            log.debug(
                "%s: timed call %d: %.4f / %.4f ms, floor %.4f, SM %s GHz in the call, %s before",
                case.name,
                len(ends),
                *pair,
                floor,
                ghz,
                settling.readings[-1] if settling.readings else None,
            )
            ends.append(pair)
            walls.append(wall)
            floors.append(floor)
            if ghz is not None:
                in_call.append(ghz)
            # Stop on the times reported (measure.referee_floor). Time spent waiting for the clock
            # is not taken from the case's budget.
            times, floor_calls = measure.referee_floor([e[0] for e in ends], floors)
            if measure.converged(times) or (
                len(ends) >= 3 and time.monotonic() - start - settling.waited_s > BENCH_BUDGET_S
            ):
                break
        with self.g.timed("clocks"):
            clocks_after = device.clocks()
        st = measure.stats(times)
        wall_med = statistics.median(walls)
        # The runner's clock runs in untrusted code: the referee's own clock must agree with it.
        # Only a gross disagreement is called forgery (see WALL_SLACK_MS); the speed-of-light
        # bound below catches a forged time that is merely too good.
        referee_ms = min(walls) - self.cal.overhead_ms
        if st.median < 0.5 * referee_ms - WALL_SLACK_MS:
            # Every call of the case stalled on the host: either the submission works outside
            # what the GPU bracket sees (host compute before its launch), call after call, or a
            # passing stall of the host or the driver held every call of the round (an honest
            # transpose on an H100: 0.18 ms on the GPU, a 5.6 ms wall for a whole round,
            # benchmarks/README.md, 'Referee timing'). A second round tells them apart: a
            # forgery repeats.
            referee_ms = self._wall_again(key, bufs, case, flusher)
            if st.median < 0.5 * referee_ms - WALL_SLACK_MS:
                raise Stop(
                    Verdict.REJECTED,
                    f"benchmark {case.name}: reported {st.median:.4f} ms, but the "
                    f"referee measured {referee_ms:.4f} ms: the timer was tampered with",
                )
        flops, nbytes = self.g.problem.roofline.counts(case.params)
        t_mem, t_cmp = self._roofline_ms(flops, nbytes)
        if st.median < SOL_GUARD * max(t_mem, t_cmp):
            # The ceilings may have been measured while other work shared the GPU: measure them
            # again before calling the time impossible (measure.ceiling).
            with self.g.timed("ceilings_again"):
                t_mem, t_cmp = self._roofline_ms(flops, nbytes, again=True)
        sol_ms = max(t_mem, t_cmp)
        if st.median < SOL_GUARD * sol_ms:
            raise Stop(
                Verdict.REJECTED,
                f"benchmark {case.name}: reported {st.median:.4f} ms, faster than this GPU's measured "
                f"speed of light ({sol_ms:.4f} ms): the time cannot be true (work launched on a "
                "stream that solve's stream does not wait for runs before the timer starts)",
            )
        with self.g.timed("baseline"):  # measured once per GPU and case, then read from the cache
            baseline_ms = baseline.cached(self.g.problem, case)
        clocks = {
            "before": clocks_before,
            "after": clocks_after,
            "throttled": bool(clocks_before.get("throttled") or clocks_after.get("throttled")),
            **settling.summary(),
            # What the runner read across its calls (hold.py): the kernel's own clock under its
            # load, for the learner; untrusted, so nothing is decided on it.
            "sm_ghz_in_calls": round(statistics.median(in_call), 4) if in_call else None,
        }
        return BenchResult(
            name=case.name,
            median_ms=round(st.median, 5),
            runs=st.runs,
            iqr_ms=round(st.iqr, 5),
            rse_pct=round(st.rse * 100, 3),
            min_ms=round(st.min, 5),
            max_ms=round(st.max, 5),
            gbps=round(nbytes / (st.median / 1e3) / 1e9, 2),
            tflops=round(flops / (st.median / 1e3) / 1e12, 3),
            sol_ms=round(sol_ms, 5),
            sol_pct=round(100 * sol_ms / st.median, 1),
            bound="memory" if t_mem >= t_cmp else "compute",
            wall_median_ms=round(wall_med, 4),
            referee_calls=floor_calls,
            referee_gap_us=round(
                statistics.median(f - e[0] for f, e in zip(floors, ends, strict=True)) * 1e3, 1
            ),
            baseline_ms=baseline_ms,
            clocks=clocks,
        )


def ends(msg: messages.Received) -> tuple[float, float]:
    """The runner's two end times of a timed call (runner.Runner.call), validated."""
    ms, ms_sync = msg.get("ms"), msg.get("ms_sync")
    for v in (ms, ms_sync):
        if not isinstance(v, float | int) or v != v or v < 0:
            raise Stop(Verdict.REJECTED, "the runner reported no valid time for a timed call")
    assert isinstance(ms, float | int) and isinstance(ms_sync, float | int)
    if ms_sync < ms:
        raise Stop(
            Verdict.REJECTED,
            "the runner reported a call that ended before its own work: the timer was "
            "tampered with",
        )
    return float(ms), float(ms_sync)
