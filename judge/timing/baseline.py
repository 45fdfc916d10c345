"""The torch baseline of a benchmark case: ``reference.baseline`` timed like a submission.

Run by the referee (trusted code, its own process), with fresh inputs for every run, L2
flushed before each, the GPU's clock waited for (clock.py) and the call launched behind the
holding kernel as a submission's is, CUDA events on the
stream torch computes on (torch's own work stays on it), stopping at 0.5% relative standard error
or a 4 s budget. Cached per GPU, torch version, problem and case, next to the
speed-of-light ceilings, so a learner's grading pays for it once per GPU.
"""

from __future__ import annotations

import hashlib
import json
import logging
import statistics
import time
from typing import Any

from judge.problem import loader
from judge.problem.schema import Case, Problem
from judge.timing import clock, measure

log = logging.getLogger(__name__)


def time_baseline(problem: Problem, case: Case) -> float | None:
    """Median ms of the problem's baseline on this GPU, or None if it has none."""
    if problem.gpus > 1:  # a collective on N GPUs: timed with its process group (docs/multi-gpu.md)
        return None
    import torch

    from judge.timing.hold import Hold

    ref = loader.load_reference(problem)
    fn = getattr(ref, "baseline", None)
    if fn is None:
        return None
    old = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = True  # what the problems allow (TF32 for matmul)
    flusher = measure.L2Flusher.shared()
    hold = Hold.shared()
    probe = clock.ClockProbe.shared()
    gen = torch.Generator(device="cuda")
    times: list[float] = []
    start = time.monotonic()
    try:
        for i in range(measure.MAX_RUNS + 2):
            gen.manual_seed(1000 + i)
            inputs = loader.call_generate(
                ref, problem, case.params, case.kind, gen, torch.device("cuda")
            )
            args: dict[str, Any] = {}
            for a in problem.args:
                if a.role in ("input", "inout"):
                    args[a.name] = inputs[a.name]
                elif a.role == "output":
                    args[a.name] = torch.empty(
                        problem.shape(a, case.params), dtype=getattr(torch, a.dtype), device="cuda"
                    )
                else:
                    args[a.name] = case.params[a.name]
            flusher.flush()
            torch.cuda.synchronize()
            probe.settle()
            ms = hold.time_call(lambda: fn(**args)).stream_ms  # noqa: B023 (called at once)
            if i >= 2:  # two warm-up runs
                times.append(ms)
            if measure.converged(times) or (len(times) >= 3 and time.monotonic() - start > 4):
                break
    finally:
        torch.backends.cuda.matmul.allow_tf32 = old
    return statistics.median(times)


def cached(problem: Problem, case: Case) -> float | None:
    """``time_baseline`` once per GPU, torch version, problem and case; None when it fails."""
    import torch

    key = "|".join(
        (
            torch.cuda.get_device_name(),
            f"torch {torch.__version__}",
            "v2",
            "baseline",
            problem.slug,
            case.name,
            _code(problem),  # a changed baseline (reference.py, problem.toml) is timed again
        )
    )
    path = measure.cache_file()
    try:
        data = json.loads(path.read_text()) if path.exists() else {}
    except (OSError, ValueError):
        data = {}
    if key in data:
        return float(data[key]) if data[key] is not None else None
    try:
        value = time_baseline(problem, case)
    except Exception:  # a broken baseline must not fail a learner's grading
        log.exception("baseline of %s/%s failed", problem.slug, case.name)
        return None
    data[key] = value
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=2))
    except OSError:
        pass
    return value


def _code(problem: Problem) -> str:
    """A digest of what the baseline's time depends on in the folder: reference.py (the baseline
    itself) and problem.toml (the case's sizes and kinds)."""
    digest = hashlib.sha256()
    for name in ("reference.py", "problem.toml"):
        try:
            digest.update((problem.path / name).read_bytes())
        except OSError:
            digest.update(name.encode())
    return digest.hexdigest()[:16]
