"""Hold the GPU while a timed call is launched, so its CUDA-event time is GPU time only.

A timed call records a start event, calls ``solve`` and records an end event. On an idle GPU the
start event fires at once, and everything the host does before the first kernel reaches the GPU
(Python, Triton's launcher, the rules' dispatch mode) is counted as kernel time: on an H100 that
was 50-90 µs on a 140 µs vector add, and it varied with the host's scheduling. The usual cure
(nvbench's "blocking kernel") is to queue a kernel that spins until the host has launched the
timed work, then record the start event behind it: the launches are hidden, the kernel time is not.

The holding kernel here fills every thread slot of every SM (``blocks_per_sm`` blocks of 512
threads, no more than 32 registers each), so nothing the submission queues on another stream can
run while it is held: work on a side stream starts no earlier than the start event. It waits for a
generation counter in device memory that the host bumps with a copy-engine copy on a separate
non-blocking stream once ``solve`` has returned, or for a timeout, so a ``solve`` that synchronizes
the device inside itself only waits ``TIMEOUT_NS``, and its time is still GPU time.

Each timed call also reports the SM clock it ran at (``Timed.sm_ghz``): as the holding kernel
lets the call go, one of its blocks on each SM stamps that SM's cycle counter (``%clock64``)
and the global timer, and a stamping kernel launched after the device-wide end stamps every SM
again. Cycles over nanoseconds is each SM's mean clock across the call. On an H100 it was
1.98 GHz for a spinning kernel but 1.80-1.83 GHz across flash-attention's calls and
1.69-1.74 GHz across a TF32 matmul's, while NVML read 1980 MHz throughout
(benchmarks/clock_gate.py).

The timeout is also the most host time a ``solve`` can hide: host work after it is counted, as the
GPU waits for it. 2 ms covers any honest sequence of launches (tens of microseconds each) and
scratch allocations; with 20 ms, a ``solve`` that spent 35 ms walking the file system was timed at
15 ms, and the referee's wall clock called that a forged time.
"""

from __future__ import annotations

import statistics
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

import triton
import triton.language as tl

if TYPE_CHECKING:
    from judge.timing.gate import RunnerGate

WARPS = 16  # 512 threads per block
TIMEOUT_NS = 2_000_000
# How long a gated call's solve may take on the host before the runner tells the referee it
# has launched anyway (Hold.time_call), so that its wait can end; what is left of its host time
# is then in both clocks, as GPU time. Longer than any honest launch: with 0.5 ms, the host time
# of a Triton matmul's launch (0.4-1 ms in the sandbox on an H100) reached the referee's clock
# on half of the calls.
GATE_WATCHDOG_S = 0.005
SLOTS = 256  # SM ids stamped (an H100 has 132 SMs)


@triton.jit
def _globaltimer():  # type: ignore[no-untyped-def]
    return tl.inline_asm_elementwise(
        asm="mov.u64 $0, %globaltimer;",
        constraints="=l",
        args=[],
        dtype=tl.int64,
        is_pure=False,
        pack=1,
    )


@triton.jit
def _clock64():  # type: ignore[no-untyped-def]
    return tl.inline_asm_elementwise(
        asm="mov.u64 $0, %clock64;",
        constraints="=l",
        args=[],
        dtype=tl.int64,
        is_pure=False,
        pack=1,
    )


@triton.jit
def _smid():  # type: ignore[no-untyped-def]
    return tl.inline_asm_elementwise(
        asm="mov.u32 $0, %smid;",
        constraints="=r",
        args=[],
        dtype=tl.int32,
        is_pure=False,
        pack=1,
    )


# The generation grows by one per call: left to specialise, Triton would compile the kernel again
# for generation 16 (divisible by 16) in the middle of a grading.
@triton.jit(do_not_specialize=["generation", "timeout_ns"])  # type: ignore[untyped-decorator]
def _hold(flag_ptr, stamp_ptr, generation, timeout_ns, SLOTS: tl.constexpr):  # type: ignore[no-untyped-def]
    t0 = _globaltimer()
    waiting = tl.load(flag_ptr, volatile=True) < generation
    while waiting:
        waiting = (tl.load(flag_ptr, volatile=True) < generation) & (
            _globaltimer() - t0 < timeout_ns
        )
    _stamp(stamp_ptr, generation, SLOTS)


# Stamps of every SM: rows [generation, global ns, SM cycles] for the start, then for the end,
# one column per SM id. The first block on an SM to raise its generation writes the stamp.
@triton.jit  # type: ignore[untyped-decorator]
def _stamp(stamp_ptr, generation, SLOTS: tl.constexpr):  # type: ignore[no-untyped-def]
    ns = _globaltimer()
    cycles = _clock64()
    sm = _smid().to(tl.int64)
    if sm < SLOTS:  # noqa: SIM102 (Triton would run the atomic out of bounds)
        if tl.atomic_max(stamp_ptr + sm, generation) < generation:
            tl.store(stamp_ptr + SLOTS + sm, ns)
            tl.store(stamp_ptr + 2 * SLOTS + sm, cycles)


# Several blocks per SM: on an idle GPU every SM gets one.
@triton.jit(do_not_specialize=["generation"])  # type: ignore[untyped-decorator]
def _stamp_end(stamp_ptr, generation, SLOTS: tl.constexpr):  # type: ignore[no-untyped-def]
    _stamp(stamp_ptr + 3 * SLOTS, generation, SLOTS)


class _Once:
    """Calls ``fn`` (if any) the first time it is called, from whichever thread."""

    def __init__(self, fn: Callable[[], object] | None) -> None:
        self.fn = fn
        self.lock = threading.Lock()

    def __call__(self) -> None:
        with self.lock:
            fn, self.fn = self.fn, None
            if fn is not None:
                fn()


class Timed(NamedTuple):
    """One timed call (``Hold.time_call``), in ms from the start event."""

    stream_ms: float  # to the end of the call's work on its stream
    device_ms: float  # to the end after a device-wide synchronize
    sm_ghz: float | None  # the SMs' clock across the call (median over the SMs), if read
    sm_ghz_range: tuple[float, float] | None  # the slowest and the fastest SM


class Hold:
    """One per process; ``time_call`` holds, times and releases (``hold()`` before the start
    event, ``release()`` after ``solve``)."""

    _shared: Hold | None = None

    @classmethod
    def shared(cls) -> Hold:
        """One per process, for the referee's own timed calls (torch baselines); a runner makes
        its own before any submission code exists."""
        if cls._shared is None:
            import torch

            cls._shared = cls(torch)
        return cls._shared

    def __init__(self, torch: Any) -> None:
        self.torch = torch
        props = torch.cuda.get_device_properties(torch.cuda.current_device())
        threads = int(getattr(props, "max_threads_per_multi_processor", 2048))
        self.grid = (props.multi_processor_count * max(1, threads // (32 * WARPS)),)
        self.stamp_grid = (4 * props.multi_processor_count,)
        self.flag = torch.zeros(1, dtype=torch.int64, device="cuda")
        self.stamps = torch.zeros(6 * SLOTS, dtype=torch.int64, device="cuda")
        self.host = torch.zeros(1, dtype=torch.int64, pin_memory=True)
        self.stream = torch.cuda.Stream()  # a pool stream: created non-blocking
        self.generation = 0
        # Compile and load both kernels now, before any submission code exists: a Triton
        # kernel's first launch in a process costs tens of milliseconds (the first calibration
        # ping paid 70 ms for the stamping kernel before this).
        self.time_call(lambda: None)

    def hold(self) -> None:
        self.generation += 1
        _hold[self.grid](
            self.flag,
            self.stamps,
            self.generation,
            TIMEOUT_NS,
            SLOTS,
            num_warps=WARPS,
            num_stages=1,
            maxnreg=32,
        )

    def release(self) -> None:
        torch = self.torch
        self.host[0] = self.generation
        with torch.cuda.stream(self.stream):
            self.flag.copy_(self.host, non_blocking=True)

    def time_call(
        self,
        fn: Callable[[], object],
        gate: tuple[RunnerGate, int] | None = None,
        launched: Callable[[], object] | None = None,
    ) -> Timed:
        """``fn`` timed behind the hold: to the end of its work on the current stream, and to
        the end after a device-wide synchronize, with the SM clock across
        the call. The runner's timed calls, its calibration pings (``fn`` doing nothing) and
        the torch baselines all take this one path, so the host latency a ping measures is the
        one inside a real call's second end.

        With a ``gate`` (gate.py: the runner's side and the call's generation), the stream first
        waits for the referee's ``go`` and writes ``done`` after the stream end; ``launched`` is
        called once everything is queued, before this process waits for the GPU: the referee
        queues its side of the gate then."""
        torch = self.torch
        stream = torch.cuda.current_stream()
        start, stream_end, end = (torch.cuda.Event(enable_timing=True) for _ in range(3))
        say = _Once(launched)
        watchdog = None
        # The hold first: it keeps every SM while solve launches (work on a side stream cannot
        # start) and ends at the release, before "launched"; then the stream waits at the gate,
        # so the start event and the referee's "go" both come after the launch (gate.py).
        self.hold()
        if gate is not None:
            gate[0].wait_go(stream, gate[1])
            # A solve that waits for the GPU inside itself (a synchronize, cudaFree, a module
            # load) would wait for "go" forever: past GATE_WATCHDOG_S it is let go, and what is
            # left of its host time is counted as GPU time by both clocks.
            watchdog = threading.Timer(GATE_WATCHDOG_S, say)
            watchdog.daemon = True
            watchdog.start()
        start.record(stream)
        try:
            fn()
        finally:
            stream_end.record(stream)
            if gate is not None:
                gate[0].write_done(stream, gate[1])
            self.release()
            if watchdog is not None:
                watchdog.cancel()
            say()
        torch.cuda.synchronize()
        end.record(stream)
        # After the end event: the stamp is in no time.
        _stamp_end[self.stamp_grid](self.stamps, self.generation, SLOTS, num_warps=1, num_stages=1)
        end.synchronize()
        per_sm = sm_ghz(self.stamps.tolist(), self.generation)
        return Timed(
            stream_ms=start.elapsed_time(stream_end),
            device_ms=start.elapsed_time(end),
            sm_ghz=statistics.median(per_sm) if per_sm else None,
            sm_ghz_range=(min(per_sm), max(per_sm)) if per_sm else None,
        )


def sm_ghz(stamps: list[int], generation: int) -> list[float]:
    """The clock of each SM stamped at both ends of a call (``_hold``, ``_stamp_end``), in GHz."""
    rows = [stamps[i * SLOTS : (i + 1) * SLOTS] for i in range(6)]
    out = []
    for gen0, ns0, cycles0, gen1, ns1, cycles1 in zip(*rows, strict=True):
        if gen0 == generation == gen1 and ns1 > ns0 and cycles1 > cycles0:
            out.append((cycles1 - cycles0) / (ns1 - ns0))
    return out
