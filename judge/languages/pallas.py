"""JAX Pallas: a Python file whose ``solve(...)`` calls ``pl.pallas_call`` kernels and returns their
results. Kernel track: only Pallas kernels compute (pallas_rules.py).

How the judge calls it (runner side, ``_PallasLoaded``):

* ``solve`` takes the problem's arguments in order: inputs (and in-place arguments) as JAX arrays
  over the judge's own memory (``jax.dlpack.from_dlpack``: zero-copy, no host round trip), each
  output as a ``jax.ShapeDtypeStruct`` (what ``pallas_call``'s ``out_shape`` wants), sizes as
  ints. It returns its outputs (and in-place arguments), in signature order; one may be bare.
* The judge runs ``solve`` under ``jax.jit`` with the sizes static: traced once per size, that
  trace checked (the jaxpr half of the rule) and compiled, then called; ``solve``'s Python runs
  only while it is traced, so a call counter in it changes nothing that runs. JAX's arrays are immutable and a
  ``pallas_call`` writes new buffers, so the outputs are copied into the judge's tensors on the
  timed stream (``torch.from_dlpack`` of each result, then ``copy_``). That copy is counted in
  the time: aliasing an output buffer into ``pallas_call`` (``input_output_aliases``) writes in
  place only when JAX may donate the buffer, which it may not for memory it borrowed through
  DLPack, so the judge does not pretend otherwise. The copy moves each output once more (read
  and write): a vector add moves 20 bytes per element instead of 12.
* Streams: DLPack carries the ordering both ways without the host waiting. Importing an input,
  JAX asks torch to make JAX's stream wait for torch's current stream (where the judge's timing
  starts); exporting a result, torch asks JAX to make torch's stream wait for the result. The
  copy and the end event follow on torch's stream. ``synchronize`` waits for JAX's outputs
  (``block_until_ready``, which reports a kernel's fault) and then the device.
* ``interpret``: the judge sets it (``pallas_call`` is wrapped before the submission is
  imported): True on the CPU (Pallas' interpreter, as Triton's), False on a GPU, where Pallas
  lowers through Triton (or Mosaic GPU when the kernel asks for it). Triton's lowering does not
  mask the edge blocks of a ragged grid: kernels mask their tails themselves
  (``plgpu.load(ref, mask=..., other=...)``, ``plgpu.store(ref, value, mask=...)``). The
  interpreter pads edge blocks instead, so a missing store mask passes on the CPU; on a GPU it
  writes past the end of JAX's own output buffer, which the judge's guard bands do not cover.
* A CPU worker also lowers ``solve`` for a GPU at each new size (pallas_lowering.py, no GPU
  needed; ``LOWERING_BUDGET_S``): what the interpreter ran but Triton's lowering refuses is a
  warning on the result.
* XLA preallocates 75% of GPU memory by default: off (``XLA_PYTHON_CLIENT_PREALLOCATE``), so the
  memory a submission uses is what it allocates, as for the other languages.
"""

from __future__ import annotations

import functools
import logging
import os
import time
import types
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from judge.languages.base import shapes_comment
from judge.languages.python import PythonLanguage
from judge.languages.runtime import Loaded, RunContext, SubmissionError

if TYPE_CHECKING:
    from judge.problem.schema import Problem

log = logging.getLogger(__name__)

# JAX's 32-bit mode (its default) has no 64-bit arrays; the interpreter and DLPack cover these.
SUPPORTED = frozenset(
    {
        "float32",
        "float16",
        "bfloat16",
        "int32",
        "uint32",
        "int16",
        "uint16",
        "int8",
        "uint8",
    }
)
# Pallas' interpreter runs a grid step as a few XLA operations on the CPU: a million-element
# vector add in 1024-element blocks took 0.6 s a call on a CI core (JAX 0.10.2), against 0.15 s
# for 2^18 elements. A CPU worker runs the cases whose tensors hold at most this many elements
# in all; the larger ones run only on a GPU.
CPU_MAX_ELEMENTS = 1 << 18
# A CPU worker's check that solve lowers for a GPU (pallas_lowering.py) takes 0.05 to 0.2 s a
# size for most samples, about 1 s for radix-sort's 24 kernels: sizes are checked until this
# much time is spent, so it adds at most about this much to a grading.
LOWERING_BUDGET_S = 2.0


class Pallas(PythonLanguage):
    name: ClassVar[str] = "pallas"
    starter_stem: ClassVar[str] = "pallas"  # starter/pallas.py: .py is Triton's first
    label: ClassVar[str] = "Pallas"
    menu_label: ClassVar[str] = "JAX Pallas (Python)"
    markers: ClassVar[tuple[str, ...]] = ("jax",)
    packages: ClassVar[frozenset[str]] = frozenset({"jax", "numpy"})
    compiles_ahead: ClassVar[bool] = True  # every size of a problem, in threads (compile_ahead)
    dtypes: ClassVar[frozenset[str] | None] = SUPPORTED
    dtypes_owner: ClassVar[str] = "JAX (32-bit mode)"
    cpu_max_elements: ClassVar[int | None] = CPU_MAX_ELEMENTS
    value_modules: ClassVar[tuple[str, ...]] = ("jax.numpy",)  # jnp.float32, jnp.inf
    function_modules: ClassVar[frozenset[str]] = frozenset({"jax.numpy", "jax.lax"})  # jnp.add

    def runner_env(self, device: str) -> dict[str, str]:
        env = {"XLA_PYTHON_CLIENT_PREALLOCATE": "false"}
        if device == "cpu":  # no probing for GPU or TPU plug-ins on a CPU worker
            env["JAX_PLATFORMS"] = "cpu"
        else:
            # Recent JAX lowers pallas_call to Mosaic GPU by default; this language is Pallas
            # on Triton (a kernel asking for Mosaic GPU in its compiler_params still gets it).
            env["JAX_PALLAS_USE_MOSAIC_GPU"] = "false"
        return env

    def check_source(self, source: str, problem: Problem) -> object | None:
        from judge.languages import pallas_rules

        return pallas_rules.check_source(source)

    def load(self, path: Path, ctx: RunContext) -> Loaded:
        from judge.languages.runtime import import_solve

        jax = _import_jax(ctx.device)

        def on_error(e: BaseException) -> str:
            verdict = ctx.classify(e, path.name)[0]
            return verdict if verdict == "memory_limit_exceeded" else "compile_error"

        return _PallasLoaded(import_solve(path, on_error), ctx, jax)

    def generate_starter(self, problem: Problem) -> str:
        out = problem.outputs[0]
        fed = [a for a in problem.args if a.role in ("input", "inout")]
        # An in-place argument is an input ref and an output ref of its own.
        written = [
            f"{a.name}_out_ref" if a.role == "inout" else f"{a.name}_ref" for a in problem.outputs
        ]
        refs = ", ".join([*(f"{a.name}_ref" for a in fed), *written])
        names = ", ".join(a.name for a in problem.args)
        returned = ", ".join(a.name for a in problem.outputs)
        shapes = [
            f"jax.ShapeDtypeStruct({a.name}.shape, {a.name}.dtype)" if a.role == "inout" else a.name
            for a in problem.outputs
        ]
        out_shape = shapes[0] if len(shapes) == 1 else f"({', '.join(shapes)})"
        rest = len(out.shape) - 1  # whole rows of a multi-axis output per instance
        block = f"(BLOCK, *{out.name}.shape[1:])" if rest else "(BLOCK,)"
        specs = [
            f"pl.BlockSpec(block_shape={block}, index_map=lambda i: {_tuple(['i'] + ['0'] * rest)})"
        ]
        for a in problem.outputs[1:]:  # the others whole, in every instance
            zeros = _tuple(["0"] * len(a.shape))
            specs.append(f"pl.BlockSpec(block_shape={a.name}.shape, index_map=lambda i: {zeros})")
        out_specs = (
            specs[0]
            if len(specs) == 1
            else "(\n            " + ",\n            ".join(specs) + ",\n        )"
        )
        return f"""import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu


def solve_kernel({refs}, *, BLOCK):
    i = pl.program_id(0)
    # TODO: instance i computes block i of {out.name} (BLOCK along its first axis): load from the
    # input refs, compute with jnp, and store into {written[0]}. On a GPU the last block is
    # ragged: mask it (plgpu.load(ref, mask=..., other=...), plgpu.store(ref, value, mask=...)).


{shapes_comment(problem, "#")}
# Inputs are JAX arrays on the GPU; each output arrives as a jax.ShapeDtypeStruct (its shape and
# dtype, for out_shape). Return {returned} from Pallas kernels: outside a kernel, solve may only
# reshape and call pallas_call.
def solve({names}):
    BLOCK = 1024
    return pl.pallas_call(
        functools.partial(solve_kernel, BLOCK=BLOCK),
        out_shape={out_shape},
        grid=(pl.cdiv({out.name}.shape[0], BLOCK),),
        out_specs={out_specs},
    )({", ".join(a.name for a in fed)})
"""


def _tuple(items: list[str]) -> str:
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"


def _import_jax(device: str) -> Any:
    """JAX, with ``pallas_call``'s interpret mode set by the judge (True on the CPU)."""
    try:
        import jax
        from jax.experimental import pallas as pl
    except ImportError as e:
        raise SubmissionError(
            "compile_error", f"JAX with Pallas is not installed on this worker ({e})"
        ) from e
    if device == "cuda" and jax.default_backend() != "gpu":
        raise SubmissionError(
            "runtime_error",
            f"this worker's JAX has no GPU backend ({jax.default_backend()}): it needs JAX's CUDA "
            "plug-in (jax-cuda13-plugin: requirements/worker-gpu.txt)",
        )
    original = pl.pallas_call
    if getattr(original, "kerneldojo_interpret", None) is None:
        interpret = device == "cpu"

        @functools.wraps(original)
        def pallas_call(*args: Any, **kwargs: Any) -> Any:
            # Read at each call: the GPU lowering check flips it (pallas_lowering.gpu_lowering).
            kwargs["interpret"] = pallas_call.kerneldojo_interpret  # type: ignore[attr-defined]
            return original(*args, **kwargs)

        pallas_call.kerneldojo_interpret = interpret  # type: ignore[attr-defined]
        pl.pallas_call = pallas_call
    return jax


class _PallasLoaded(Loaded):
    def __init__(self, solve: Any, ctx: RunContext, jax: Any) -> None:
        self.solve, self.ctx, self.jax = solve, ctx, jax
        self.compiled: dict[tuple[Any, ...], Any] = {}
        self.pending: list[Any] = []  # the last call's results, until synchronize
        self.notes: list[str] = []  # warnings for the result (take_warnings)
        self.check_ragged = ctx.device != "cuda"  # until one is found (pallas_ragged.py)
        # On a CPU worker, each new size is also lowered for a GPU, until one fails or the
        # check's time is spent (_lowers).
        self.check_lowering = ctx.device == "cpu"
        self.lowering_s = 0.0

    def _roles(self, args: list[Any]) -> list[str]:
        if len(self.ctx.roles) == len(args):
            return self.ctx.roles
        raise SubmissionError("runtime_error", "the judge sent no signature roles to Pallas")

    def invoke(self, args: list[Any]) -> Any:
        jax, torch = self.jax, self.ctx.torch
        roles = self._roles(args)
        arrays = [jax.dlpack.from_dlpack(a) for a, r in zip(args, roles, strict=True) if _fed(r)]
        key = _key(args, roles)
        run = self.compiled.get(key)
        if run is None:
            run = self.compiled[key] = self._ruled_trace(args, roles, arrays)
        outs = run(*arrays)
        if self.ctx.device != "cuda":
            jax.block_until_ready(outs)  # the CPU has no stream to order the copy behind
        written = [a for a, r in zip(args, roles, strict=True) if r in ("output", "inout")]
        for dst, out in zip(written, outs, strict=True):
            dst.copy_(torch.from_dlpack(out))
        self.pending = list(outs)
        return None

    def _ruled_trace(self, args: list[Any], roles: list[str], arrays: list[Any]) -> Any:
        from judge.sandbox import rules

        if self.ctx.forbid_library:  # torch compute inside solve is refused as elsewhere
            with rules.no_library_compute():
                return self._trace(args, roles, arrays)
        return self._trace(args, roles, arrays)

    def compile_ahead(self, cases: list[dict[str, Any]]) -> int:
        """``solve`` traced and compiled for every case's sizes before the tests, in threads
        (XLA compiles without the GIL): on an H200 each new size cost radix-sort's sample 2.3 s
        of compiling, one size after another. ``cases`` are the referee's placeholders (each
        argument's dtype and shape, or int value); nothing runs. A size that fails here is
        traced again by its real call, which fails as it would have. Returns sizes compiled."""
        from concurrent.futures import ThreadPoolExecutor

        if self.check_lowering:  # a CPU worker's GPU-lowering check switches modes process-wide
            return 0
        jobs: dict[tuple[Any, ...], tuple[list[Any], list[str], list[Any]]] = {}
        for case in cases:
            args = [_placeholder(a, self.ctx.torch) for a in case.get("args", [])]
            roles = self._roles(args)
            key = _key(args, roles)
            if key not in self.compiled and key not in jobs:
                arrays = [
                    self.jax.ShapeDtypeStruct(tuple(a.shape), _jax_dtype(self.jax, a.dtype))
                    for a, r in zip(args, roles, strict=True)
                    if _fed(r)
                ]
                jobs[key] = (args, roles, arrays)
        if not jobs:
            return 0
        with ThreadPoolExecutor(min(len(jobs), COMPILE_THREADS)) as pool:
            futures = {key: pool.submit(self._ruled_trace, *job) for key, job in jobs.items()}
        done = 0
        for key, future in futures.items():
            if future.exception() is None:
                self.compiled[key] = future.result()
                done += 1
        return done

    def _trace(self, args: list[Any], roles: list[str], arrays: list[Any]) -> Any:
        """``solve`` for these sizes: traced, checked (pallas_rules.check_jaxpr), compiled."""
        from judge.languages import pallas_rules

        jax = self.jax
        fixed: list[Any] = []
        for a, r in zip(args, roles, strict=True):
            if r == "int":
                fixed.append(int(a))
            elif r == "output":
                dtype = jax.numpy.dtype(str(a.dtype).removeprefix("torch."))
                fixed.append(jax.ShapeDtypeStruct(tuple(a.shape), dtype))
            else:
                fixed.append(_FED)
        written = [a for a, r in zip(args, roles, strict=True) if r in ("output", "inout")]

        def call(*fed: Any) -> tuple[Any, ...]:
            it = iter(fed)
            result = self.solve(*(next(it) if f is _FED else f for f in fixed))
            return _as_outputs(result, len(written))

        # Traced once: what is checked is what is compiled (a second trace could run a solve
        # that behaves differently the second time it is called).
        traced = jax.jit(call).trace(*arrays)
        closed, shapes = traced.jaxpr, traced.out_info
        why = pallas_rules.check_jaxpr(closed, interpret=self.ctx.device != "cuda")
        if why is not None:
            raise SubmissionError("rejected", why)
        if self.check_ragged:  # what the interpreter's padding hides (pallas_ragged.py)
            from judge.languages import pallas_ragged

            ragged = pallas_ragged.unmasked_ragged_stores(closed)
            self.notes += ragged[:1]
            self.check_ragged = not ragged  # said once: later sizes need not repeat it
        for i, (got, want) in enumerate(zip(shapes, written, strict=True)):
            want_dtype = str(want.dtype).removeprefix("torch.")
            if tuple(got.shape) != tuple(want.shape) or str(got.dtype) != want_dtype:
                raise SubmissionError(
                    "wrong_answer",
                    f"solve returned output {i + 1} with shape {tuple(got.shape)} {got.dtype}; "
                    f"the problem wants {tuple(want.shape)} {want_dtype}",
                )
        compiled = traced.lower().compile()
        if self.check_lowering:
            self._lowers(
                call, arrays, [int(a) for a, r in zip(args, roles, strict=True) if r == "int"]
            )
        return compiled

    def _lowers(self, call: Any, arrays: list[Any], sizes: list[int]) -> None:
        """Whether ``call`` would lower on a GPU worker (pallas_lowering.py): a warning on the
        result if not. What the interpreter ran is graded as it ran; nothing here is a verdict."""
        from judge.languages import pallas_lowering
        from judge.languages.python import SOURCE

        t0 = time.perf_counter()
        try:
            shapes = [self.jax.ShapeDtypeStruct(a.shape, a.dtype) for a in arrays]  # no device
            error = pallas_lowering.lowering_error(call, shapes, source=SOURCE)
        except Exception as e:  # the check's own failure says nothing about the submission
            log.warning("the GPU lowering check failed: %s", e)
            error = None
        self.lowering_s += time.perf_counter() - t0
        if error is not None:
            self.notes.append(pallas_lowering.warning(error, sizes))
            self.check_lowering = False  # one warning says it; later sizes need not repeat it
        elif self.lowering_s >= LOWERING_BUDGET_S:
            self.check_lowering = False

    def take_warnings(self) -> list[str]:
        notes, self.notes = self.notes, []
        return notes

    def synchronize(self) -> None:
        pending, self.pending = self.pending, []
        try:
            self.jax.block_until_ready(pending)
        except Exception as e:  # a kernel's fault, reported by XLA
            raise SubmissionError("runtime_error", f"the Pallas kernel failed: {e}") from e
        if self.ctx.device == "cuda":
            self.ctx.torch.cuda.synchronize()


_FED = object()  # stands for an array argument in the template of a call
# Sizes compiled at once ahead of the tests (compile_ahead): a GPU host's cores, at most 8.
COMPILE_THREADS = max(1, min(8, len(os.sched_getaffinity(0))))


def _key(args: list[Any], roles: list[str]) -> tuple[Any, ...]:
    """What a compiled ``solve`` depends on: the ints' values, each array's role, shape, dtype."""
    return tuple(
        a if r == "int" else (r, tuple(a.shape), str(a.dtype))
        for a, r in zip(args, roles, strict=True)
    )


def _placeholder(arg: dict[str, Any], torch: Any) -> Any:
    """A referee's placeholder argument: the int, or a shape and torch dtype with no memory."""
    if arg.get("kind") == "int":
        return int(arg["value"])
    return types.SimpleNamespace(
        shape=tuple(int(d) for d in arg["shape"]), dtype=getattr(torch, str(arg["dtype"]))
    )


def _jax_dtype(jax: Any, dtype: Any) -> Any:
    return jax.numpy.dtype(str(dtype).removeprefix("torch."))


def _fed(role: str) -> bool:
    return role in ("input", "inout")


def _as_outputs(result: Any, count: int) -> tuple[Any, ...]:
    """What ``solve`` returned as a tuple of ``count`` arrays; a clear error otherwise."""
    given = result
    if count == 1 and not isinstance(result, tuple | list):
        result = (result,)
    if (
        not isinstance(result, tuple | list)
        or len(result) != count
        or any(not hasattr(r, "shape") for r in result)
    ):
        got = "None" if given is None else type(given).__name__
        if isinstance(given, tuple | list):
            got = f"a {got} of {len(given)}"
        raise SubmissionError(
            "wrong_answer",
            f"solve must return its {count} output array{'s' if count > 1 else ''} (the results "
            f"of pallas_call), in signature order; it returned {got}",
        )
    return tuple(result)


LANGUAGE = Pallas()
