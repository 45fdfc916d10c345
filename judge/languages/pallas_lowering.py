"""Does a Pallas ``solve`` lower for a GPU? Checked on a machine without one.

Pallas' interpreter (the CPU worker's mode) runs kernels that its Triton lowering refuses: a
conv2d sample that the interpreter accepted failed on an H100 with ``AssertionError: ('i32',
'i1')`` (``t % r`` of a loop index), and arrays whose size is not a power of 2 fail. The lowering itself needs no GPU: ``jax.jit(f).trace(...)`` with
``interpret=False`` and ``.lower(lowering_platforms=("cuda",))`` turns each ``pallas_call`` into
XLA's Triton custom call (``__gpu$xla.gpu.triton``) holding the kernel's Triton IR, on the CPU.
What it checks is Pallas' half (jaxpr to Triton IR); Triton's own compile of that IR (to PTX,
and the H100's limits) happens only when XLA compiles for a GPU, and is not covered.

Used twice: by the runner on a CPU worker (``lowering_error`` on solve's call at each new size;
a failure is a warning on the result, never a verdict), and from the command line over the
samples (``python -m judge.languages.pallas_lowering [problems/<slug> ...]``, one JSON
object, sample -> case -> error or null; tests/judge/languages/test_pallas_lowering.py).
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import logging
import traceback
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from judge.problem.schema import Case, Problem

log = logging.getLogger(__name__)

# XLA's custom call that carries a kernel lowered through Triton.
TRITON_CALL = "__gpu$xla.gpu.triton"
# The one-line error a learner sees: enough to name the failure, never a stack trace.
MAX_MESSAGE = 300


def lower_for_gpu(fn: Callable[..., Any], args: Sequence[Any]) -> str:
    """``jax.jit(fn)`` traced at ``args`` (arrays or ``jax.ShapeDtypeStruct``s) and lowered for
    CUDA as a GPU worker would: the StableHLO text. Raises what the trace or Pallas raised."""
    import jax

    with gpu_lowering():
        return str(jax.jit(fn).trace(*args).lower(lowering_platforms=("cuda",)).as_text())


def lowering_error(
    fn: Callable[..., Any], args: Sequence[Any], source: str | None = None
) -> str | None:
    """None if ``fn`` at ``args`` lowers for CUDA (``lower_for_gpu``), else what failed, in one
    line. ``source``: the learner's file name, to point at its line when the error's traceback
    passes through it. None too when this JAX cannot lower a known-good kernel either: then the
    check itself is what fails, and it says nothing about the submission."""
    try:
        lower_for_gpu(fn, args)
    except Exception as e:  # whatever the trace or Pallas raised is the answer
        if not _check_works():
            log.warning("Pallas' GPU lowering does not work here: %s", one_line(e))
            return None
        return one_line(e, source)
    return None


@functools.cache
def _check_works() -> bool:
    """Whether a plain Pallas add lowers to a Triton call here (once per process)."""
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl

    def add(a_ref: Any, b_ref: Any, c_ref: Any) -> None:
        c_ref[...] = a_ref[...] + b_ref[...]

    x = jax.ShapeDtypeStruct((16,), jnp.float32)
    try:
        return TRITON_CALL in lower_for_gpu(
            lambda a, b: pl.pallas_call(add, out_shape=x)(a, b), [x, x]
        )
    except Exception:
        return False


@contextlib.contextmanager
def gpu_lowering() -> Iterator[None]:
    """Pallas as a GPU worker runs it: Triton rather than Mosaic GPU (pallas.py's runner_env), and
    the judge's ``pallas_call`` wrapper, if installed, compiling rather than interpreting."""
    import jax
    from jax.experimental import pallas as pl

    mosaic = bool(jax.config.jax_pallas_use_mosaic_gpu)  # type: ignore[attr-defined]
    wrapper = pl.pallas_call
    interpret = getattr(wrapper, "kerneldojo_interpret", None)
    jax.config.update("jax_pallas_use_mosaic_gpu", False)
    if interpret is not None:
        wrapper.kerneldojo_interpret = False  # type: ignore[attr-defined]
    try:
        yield
    finally:
        jax.config.update("jax_pallas_use_mosaic_gpu", mosaic)
        if interpret is not None:
            wrapper.kerneldojo_interpret = interpret  # type: ignore[attr-defined]


def one_line(e: BaseException, source: str | None = None) -> str:
    """``Type: message`` on one line, with the learner's line where the traceback shows one."""
    first = next((ln.strip() for ln in str(e).splitlines() if ln.strip()), "")
    text = f"{type(e).__name__}: {first}" if first else type(e).__name__
    if len(text) > MAX_MESSAGE:
        text = text[: MAX_MESSAGE - 3] + "..."
    where = ""
    if source is not None:
        seen: set[int] = set()
        chain: BaseException | None = e
        while chain is not None and id(chain) not in seen:  # JAX chains the op's own traceback
            seen.add(id(chain))
            frames = [
                f for f in traceback.extract_tb(chain.__traceback__) if f.filename.endswith(source)
            ]
            if frames:
                where = f"line {frames[-1].lineno}: "
                break
            chain = chain.__cause__
    return where + text


def warning(error: str, sizes: Sequence[int]) -> str:
    """The result's warning for a submission the interpreter ran but the GPU's lowering refuses
    (``sizes``: the problem's int arguments where it failed, in signature order)."""
    at = f" with sizes {', '.join(map(str, sizes))}" if sizes else ""
    return (
        "this solve does not lower for a GPU: Pallas' Triton lowering, what a GPU worker "
        f"compiles with, failed{at} (checked on the CPU): {error}. The interpreter ran it; a GPU "
        "worker would not"
    )


# -- a problem's cases --------------------------------------------------------------------------
def case_call(
    solve: Callable[..., Any], problem: Problem, params: dict[str, int]
) -> tuple[Callable[..., Any], list[Any]]:
    """``solve`` as the runner calls it at ``params`` (pallas.py's ``_PallasLoaded``): a function
    of the fed arrays (inputs, in-place arguments), and those arrays as ``ShapeDtypeStruct``s."""
    import jax
    import jax.numpy as jnp

    template: list[Any] = []
    fed: list[Any] = []
    for a in problem.args:
        if a.role == "int":
            template.append(int(params[a.name]))
            continue
        struct = jax.ShapeDtypeStruct(problem.shape(a, params), jnp.dtype(a.dtype))
        if a.role == "output":
            template.append(struct)
        else:
            template.append(None)
            fed.append(struct)

    def call(*arrays: Any) -> Any:
        it = iter(arrays)
        return solve(*(next(it) if t is None else t for t in template))

    return call, fed


def check_sample(path: Path, problem: Problem, cases: Sequence[Case]) -> dict[str, str | None]:
    """Each case's name -> None if the sample at ``path`` lowers for CUDA there, else the error."""
    spec = importlib.util.spec_from_file_location(f"pallas_sample_{path.parent.name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        return {c.name: f"the file does not import: {one_line(e)}" for c in cases}
    out: dict[str, str | None] = {}
    for c in cases:
        fn, args = case_call(module.solve, problem, c.params)
        try:
            text = lower_for_gpu(fn, args)
        except Exception as e:
            out[c.name] = one_line(e, path.name)
        else:
            out[c.name] = None if TRITON_CALL in text else "no kernel was lowered through Triton"
    return out
