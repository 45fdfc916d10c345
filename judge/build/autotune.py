"""How the judge treats ``@triton.autotune`` on a GPU (in the runner; speed, not a defence).

A learner's autotuner keyed on the sizes would tune again at every test size: the tutorial
matmul's 16 configs at 15 test sizes took 38 s on an H100, nearly all of it timing configs whose
times nobody reads (tests only check results). So:

* **Tests** (``TUNE_FIRST``): the autotuner runs the first config its prune keeps that compiles
  and launches; the others are neither compiled nor run. The answer it gives is checked like any
  other.
* **Benchmarks** (``TUNE_FULL``): the autotuner tunes as Triton does (its own benchmarker, every
  config its prune keeps) in the benchmark's first call, which is untimed and runs under the
  compile limit (cases.Cases.call). What tests chose is forgotten first, so a benchmark size that a
  test size shares a key with is tuned afresh. The referee hears "tuning config i of n".

The timed calls that follow find the winner in the autotuner's cache: its tuning is never part
of a reported time. Everything here runs in the submission's process and only makes grading
faster; a submission that undoes it just tunes at full cost within its own limits.
"""

from __future__ import annotations

import contextlib
import math
import weakref
from collections.abc import Callable, Iterator
from typing import Any

TUNE_FIRST = "first"
TUNE_FULL = "full"

_seen: weakref.WeakSet[Any] = weakref.WeakSet()  # autotuners that ran under TUNE_FIRST


def _autotuner_class() -> Any:
    try:
        from triton.runtime.autotuner import Autotuner
    except ImportError:  # pragma: no cover - every supported Triton has it
        return None
    return Autotuner


def first_working(quantiles_default: int = 3) -> Callable[..., Any]:
    """A benchmarker for one tuning round: the first config whose call succeeds gets time 1, the
    others infinity without being run. A config that fails to compile or exceeds the GPU's
    resources raises inside the call; the autotuner then records infinity and asks for the next
    (Triton's ``Autotuner._bench``)."""
    found = False

    def bench(kernel_call: Callable[[], Any], quantiles: Any = None, **_: Any) -> Any:
        nonlocal found
        n = len(quantiles) if quantiles else 0
        if found:
            return [math.inf] * n if n else math.inf
        kernel_call()
        found = True
        return [1.0] * n if n else 1.0

    return bench


def _with_benchmarker(tuner: Any, bench: Callable[..., Any], run: Callable[[], Any]) -> Any:
    """Runs ``run`` with ``tuner.do_bench`` replaced (an attribute or a cached property: both
    live in the instance's ``__dict__`` once set)."""
    missing = object()
    saved = tuner.__dict__.get("do_bench", missing)
    tuner.__dict__["do_bench"] = bench
    try:
        return run()
    finally:
        if saved is missing:
            tuner.__dict__.pop("do_bench", None)
        else:
            tuner.__dict__["do_bench"] = saved


@contextlib.contextmanager
def policy(mode: str | None, report: Callable[[int, int], None] | None = None) -> Iterator[None]:
    """While a call runs: ``TUNE_FIRST`` or ``TUNE_FULL`` (with ``report(done, total)`` after
    each config timed); anything else leaves the autotuner alone."""
    cls = _autotuner_class()
    if cls is None or mode not in (TUNE_FIRST, TUNE_FULL):
        yield
        return
    original = cls.run
    if mode == TUNE_FULL:
        for tuner in list(_seen):  # tests' choices, made without timing
            tuner.cache.clear()
        _seen.clear()

    def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        if len(getattr(self, "configs", ())) <= 1:
            return original(self, *args, **kwargs)
        if mode == TUNE_FIRST:
            _seen.add(self)
            keep = getattr(self, "cache_results", False)
            self.cache_results = False  # an untimed choice is not a tuning result to keep
            try:
                return _with_benchmarker(
                    self, first_working(), lambda: original(self, *args, **kwargs)
                )
            finally:
                self.cache_results = keep
        if report is None:
            return original(self, *args, **kwargs)
        inner = self.do_bench
        done, total = 0, len(self.configs)
        prune = self.prune_configs

        def pruned(kw: dict[str, Any]) -> Any:  # the count the autotuner will time
            nonlocal total
            kept = prune(kw)
            total = len(kept)
            return kept

        def counted(kernel_call: Callable[[], Any], *a: Any, **kw: Any) -> Any:
            nonlocal done
            try:
                return inner(kernel_call, *a, **kw)
            finally:
                done += 1
                report(done, total)

        self.__dict__["prune_configs"] = pruned
        try:
            return _with_benchmarker(self, counted, lambda: original(self, *args, **kwargs))
        finally:
            self.__dict__.pop("prune_configs", None)

    cls.run = run
    try:
        yield
    finally:
        cls.run = original
