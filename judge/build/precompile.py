"""Compiling a Triton submission's kernels ahead of its tests, in parallel (in the runner).

Triton compiles a kernel once per specialisation (integer arguments equal to 1 or multiples of
16, dtypes, constexprs) on the first launch that needs it, one after another on the host: a
matmul's 15 test sizes and 2 benchmark sizes meant about a dozen compiles in series, most of a
20 s grading. Before the first test, the runner calls ``solve`` once per case on scratch tensors
of the case's shapes with every Triton launch turned into a compile-only warm-up, submitted to a
thread pool through Triton's ``AsyncCompileMode`` (the compiler releases the GIL in its passes
and in ptxas: two threads compiled 6 kernels 1.7x faster on 2 cores). Kernels of autotuned
functions compile for the first config at test sizes and for every config the prune keeps at
benchmark sizes (``autotune.py``). Each compiled kernel is then loaded and its launcher made in
the same threads (``_load``). The real calls find the kernels in Triton's in-memory cache.

Nothing is launched, so nothing is computed: ``solve``'s host code runs on uninitialised
tensors. Whatever it does with them that fails (``.item()`` on a value a kernel should have
made, a loop waiting for a kernel) is caught or cut off after ``CASE_HOST_S``; that case's
remaining kernels then compile when its real call needs them, as before. All of it is only for
speed: the referee checks every real call as if this never happened.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable, Iterator
from typing import Any

from judge.build import autotune

CASE_HOST_S = 10.0  # host time of one placeholder call, compiles not included
# How long the compiles may go on after the last placeholder call before the tests start anyway
# (the tests' own calls wait for what they need).
WAIT_S = 10.0
# One grading runs at a time per GPU, and nothing else runs on the host while it compiles.
THREADS = max(1, min(16, len(os.sched_getaffinity(0))))


class _CutOff(BaseException):
    """Raised in the placeholder call by the alarm (not an Exception: ``solve`` cannot catch it
    with ``except Exception``)."""


def available() -> bool:
    try:
        from triton.runtime._async_compile import AsyncCompileMode  # noqa: F401
    except ImportError:
        return False
    return True


def placeholder(problem: Any, case: Any, tune: str) -> dict[str, Any]:
    """What the runner needs to call ``solve`` at a case's sizes: its integers, and each
    tensor's dtype and shape (the referee's message; ``_args`` makes the tensors)."""
    args = [
        {"kind": "int", "value": case.params[a.name]}
        if not a.is_tensor
        else {"kind": "tensor", "dtype": a.dtype, "shape": list(problem.shape(a, case.params))}
        for a in problem.args
    ]
    return {"args": args, "tune": tune}


def _args(case: dict[str, Any], torch: Any, device: str) -> list[Any]:
    out: list[Any] = []
    for a in case["args"]:
        if a["kind"] == "int":
            out.append(int(a["value"]))
        else:
            dtype = getattr(torch, a["dtype"])
            out.append(torch.empty(tuple(int(d) for d in a["shape"]), dtype=dtype, device=device))
    return out


@contextlib.contextmanager
def _compile_only(tune: str) -> Iterator[None]:
    """Every Triton launch becomes a warm-up (compile, no launch); an autotuned kernel compiles
    its first config (``tune == autotune.TUNE_FIRST``) or every config its prune keeps."""
    from triton.runtime.autotuner import Autotuner
    from triton.runtime.jit import JITFunction

    jit_run, tuner_run = JITFunction.run, Autotuner.run

    def run(self: Any, *args: Any, grid: Any, warmup: bool, **kwargs: Any) -> Any:
        return jit_run(self, *args, grid=grid, warmup=True, **kwargs)

    def tuned(self: Any, *args: Any, **kwargs: Any) -> Any:
        self.nargs = dict(zip(self.arg_names, args, strict=False))
        try:
            configs = self.prune_configs(kwargs) if len(self.configs) > 1 else self.configs
            for cfg in configs[:1] if tune == autotune.TUNE_FIRST else configs:
                with contextlib.suppress(Exception):
                    self.fn.run(*args, **kwargs, **cfg.all_kwargs())
        finally:
            self.nargs = None

    JITFunction.run, Autotuner.run = run, tuned
    try:
        yield
    finally:
        JITFunction.run, Autotuner.run = jit_run, tuner_run


@contextlib.contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    def fire(signum: int, frame: Any) -> None:
        raise _CutOff

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _load(kernel: Any) -> None:
    """A compiled kernel's module loaded and its launcher made, as its first launch would: on
    Triton 3.6 a launcher is C code built by gcc per signature (tritoncache.py), ~0.3-0.6 s
    each; a matmul with tensor descriptors built 7 of them one after another in its first test
    calls (1.6-1.8 s on an H100; benchmarks/README.md, 'Compile cost'). gcc runs in a child
    process, so the threads build them side by side."""
    init = getattr(kernel, "_init_handles", None)
    if callable(init):
        with contextlib.suppress(Exception):  # the real launch reports whatever is wrong
            init()


def run(
    invoke: Callable[[list[Any]], None],
    cases: list[dict[str, Any]],
    torch: Any,
    device: str,
    report: Callable[[int, int], None],
) -> dict[str, Any]:
    """Calls ``invoke(args)`` for each case under ``_compile_only``, compiles in ``THREADS``
    threads, reports ``(kernels compiled, kernels submitted)`` as they finish, for at most
    ``WAIT_S`` after the last call. Returns counts."""
    from concurrent.futures import ThreadPoolExecutor, as_completed
    from concurrent.futures import TimeoutError as Pending

    from triton.runtime._async_compile import AsyncCompileMode

    t0 = time.monotonic()
    skipped = 0
    host = waited = 0.0
    slowest: list[tuple[int, int]] = []  # per case: ms in all, ms making the placeholders
    futures: list[Any] = []
    pool = ThreadPoolExecutor(THREADS, thread_name_prefix="kd-compile")
    try:
        mode = AsyncCompileMode(pool, ignore_errors=True)
    except TypeError:  # a Triton without the option
        mode = AsyncCompileMode(pool)
    try:
        with contextlib.suppress(Exception), _mode(mode):
            for case in cases:
                t = made = time.monotonic()
                try:
                    with _compile_only(case.get("tune", autotune.TUNE_FIRST)):
                        args = _args(case, torch, device)
                        made = time.monotonic()
                        with _alarm(CASE_HOST_S):
                            invoke(args)
                except (Exception, _CutOff):
                    skipped += 1
                finally:
                    args = []
                    host += time.monotonic() - t
                    slowest.append((round((time.monotonic() - t) * 1e3), round((made - t) * 1e3)))
            futures = list(getattr(mode, "raw_futures", []))
            submitted = time.monotonic()
            loads = []
            with contextlib.suppress(Pending):
                for done, f in enumerate(as_completed(futures, timeout=WAIT_S), 1):
                    report(done, len(futures))
                    if f.exception() is None:
                        loads.append(pool.submit(_load, f.result()))
            for _ in as_completed(loads):
                pass
            waited = time.monotonic() - submitted
    finally:
        pool.shutdown(wait=False)  # what still compiles goes on; a call that needs it waits
    pending = sum(1 for f in futures if not f.done())
    failed = sum(1 for f in futures if f.done() and f.exception() is not None)
    if device == "cuda":
        torch.cuda.empty_cache()  # the placeholders' memory: not the submission's to keep
    return {
        "kernels": len(futures),
        "failed": failed,
        "pending": pending,
        "cases_cut_short": skipped,
        "seconds": round(time.monotonic() - t0, 3),
        "host_ms": round(host * 1e3),  # in the placeholder calls
        "wait_ms": round(waited * 1e3),  # for compiles still running after the last call
        "threads": THREADS,
        "slowest_ms": sorted(slowest, reverse=True)[:4],
    }


@contextlib.contextmanager
def _mode(mode: Any) -> Iterator[None]:
    """Triton's ``AsyncCompileMode`` as a context, except that leaving it finalizes only the
    compiles that have ended: its own exit waits for every one, and one ptxas run can take
    minutes (stages.py). A compile still running is finalized by the real call that needs it,
    which waits for it under the compile limit; when the grading ends the runner's sandbox ends
    it (its processes die with the runner)."""
    with mode:
        try:
            yield
        finally:
            raw = getattr(mode, "raw_futures", None)
            if isinstance(raw, list):
                mode.raw_futures = [f for f in raw if f.done()]
