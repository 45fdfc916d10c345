"""Triton's CPU interpreter, dressed as the judge's GPU (an H100) for the code it runs.

The CPU runner calls ``install()`` once, before the submission is imported. Afterwards, with
no change to the submission:

* ``triton.runtime.driver.active`` answers as the H100 would (``set_active``, Triton's own hook
  for another driver): ``get_current_target()`` is ``cuda``, capability 90, warp size 32;
  ``get_active_torch_device()`` is the CPU the interpreter computes on;
  ``utils.get_device_properties()`` gives the H100's figures (132 SMs, 232448 bytes of shared
  memory per block, 65536 registers). A CPU build of torch raises on
  ``torch.cuda.get_device_properties`` and ``get_device_capability``, which tutorials call at
  import to choose configs, so those two answer with the same H100 figures, while
  ``torch.cuda.is_available()`` stays False: code asking where to allocate still gets the CPU.
* ``@triton.autotune`` times nothing. The autotuner times configs with the driver's benchmarker;
  here that runs a config *once*, the first time the config is benchmarked for its kernel, with
  the autotuner's ``pre_hook``, ``reset_to_zero`` and ``restore_value`` around it as on a GPU,
  and afterwards only checks it (below). Every config gets the same time, so the autotuner keeps
  the first config that fits. Why: which config wins on a GPU depends on timings a CPU cannot
  know, and the first is reproducible; running each config once, not only the winner, keeps
  the side effects of a GPU's tuning (a kernel that accumulates into its output without
  ``reset_to_zero`` is wrong there, so here too) and runs every config's code at least once,
  while rerunning all of them at every new key would multiply the interpreter's cost.
  ``prune_configs_by`` and ``triton.heuristics`` run as they are. ``triton.testing.do_bench``
  calls its function once and reports 1 ms.
* Resource realism. Before the interpreter runs a kernel, the kernel is compiled for sm_90 by
  Triton's own JIT without being run (ptxas ships in Triton's wheel and needs no GPU): once per
  kernel, constexprs, options and argument types, integer arguments compiled as multiples of 16
  (their general case: a first call with ``k = 1`` must not hide a pipelined loop). The compiled
  kernel then goes through Triton's own launch checks (``CompiledKernel._init_handles``) with the
  H100's figures: shared memory per block, and threads per block against the registers ptxas
  gave each thread (read from the cubin as the CUDA driver reports them). A kernel the GPU
  would refuse fails here as there, with Triton's ``OutOfResources`` (the runner's
  ``runtime_error``) naming the kernel, its config, and the bytes needed and available; the
  autotuner skips such a config as it does on a GPU. The figures are Triton's own for the same
  GPU, not an estimate, so failing is as right here as there; a warning alone would let a
  kernel that cannot run be Accepted. A kernel that builds tensor descriptors on the device
  without ``triton.set_allocator`` fails as on a GPU too.
* What is uncertain is a warning on the result (``call_warnings()``), never a verdict: a kernel
  the interpreter ran but that does not compile for sm_90, a kernel left unchecked because the
  compiler cannot run here (no estimate replaces it) or because the time for checks ran out.
* ``kernel.warmup(...)`` returns the kernel compiled for sm_90 (the fused-softmax tutorial reads
  ``n_regs`` and ``metadata.shared`` from it); launching that kernel runs the interpreter.

A check costs 0.3-1.2 s per kernel and config on one core (docs/triton.md), so checks are
bounded: new compiles stop for the rest of a call after ``CALL_BUDGET_S`` (the referee's limit
for a call is 10 s by default) and for the runner after ``TOTAL_BUDGET_S`` or ``MAX_KERNELS``.
A check's time is its wall-clock time, or the CPU time it took (this process's and the compiler
processes' it waited for) where that is less: on a loaded machine the referee does not count a
runner's wait for a CPU against its limits (cpuwait.py), so neither do these budgets, and the
same kernels are checked as on an idle machine.

Triton's own extension points carry most of this: ``driver.set_active`` and a ``DriverBase``
(its benchmarker, ``launcher_cls``, ``utils.load_binary``), ``knobs.runtime.scope``. Where Triton
has none it is patched, with names that exist from 3.6 to 3.9: ``InterpretedFunction.run`` (the
interpreter's only per-launch entry; its pre-run hooks are per kernel and cannot skip a run),
``triton.testing.do_bench``, and, during a compile only, the ``@triton.jit`` functions of the
language and of the kernel's module (restored after). An interpreter whose ``run`` looks
different is left alone, with a warning on every result. The submission runs in this process
and could undo all of it, as it could ``rules.py``: this is realism for honest code, not a wall.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import logging
import os
import struct
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import torch
import triton
import triton.language as tl
import triton.testing
from triton import knobs
from triton.backends.compiler import GPUTarget
from triton.backends.driver import DriverBase
from triton.runtime.errors import OutOfResources
from triton.runtime.interpreter import InterpretedFunction
from triton.runtime.jit import JITFunction

from judge.build import stages
from judge.sandbox import interpreter_bf16

log = logging.getLogger(__name__)

# The judge's GPU, an H100 SXM 80GB, as Triton's driver and torch reported it on one (Triton 3.6,
# torch 2.11; docs/triton.md).
TARGET = GPUTarget("cuda", 90, 32)
TRITON_PROPERTIES = {
    "max_shared_mem": 232448,  # per block, opt-in: 227 KiB
    "max_num_regs": 65536,  # per block
    "multiprocessor_count": 132,
    "warpSize": 32,
    "sm_clock_rate": 1980000,  # kHz
    "mem_clock_rate": 2619000,  # kHz
    "mem_bus_width": 5120,
}


@dataclasses.dataclass(frozen=True)
class CudaProperties:
    """``torch.cuda.get_device_properties`` on the H100 (its public fields)."""

    name: str = "NVIDIA H100 80GB HBM3"
    gcnArchName: str = "NVIDIA H100 80GB HBM3"  # torch's spelling
    major: int = 9
    minor: int = 0
    total_memory: int = 85017493504
    multi_processor_count: int = 132
    max_threads_per_multi_processor: int = 2048
    max_threads_per_block: int = 1024
    regs_per_multiprocessor: int = 65536
    shared_memory_per_block: int = 49152
    shared_memory_per_block_optin: int = 232448
    shared_memory_per_multiprocessor: int = 233472
    warp_size: int = 32
    L2_cache_size: int = 52428800
    clock_rate: int = 1980000
    memory_clock_rate: int = 2619000
    memory_bus_width: int = 5120
    is_integrated: int = 0
    is_multi_gpu_board: int = 0


CALL_BUDGET_S = 6.0
TOTAL_BUDGET_S = 60.0
MAX_KERNELS = 48
MAX_WARNINGS = 16
BENCH_MS = 1.0


@dataclasses.dataclass
class _Check:
    """What a kernel's launch on the H100 would meet."""

    refusal: tuple[int, int, str, str] | None = None  # OutOfResources: required, limit, what, text
    scratch: int = 0  # global scratch bytes per program (tensor descriptors made on the device)


class _State:
    def __init__(self) -> None:
        self.installed = False
        self.run: Callable[..., Any] = InterpretedFunction.run  # the interpreter's own
        self.pristine: list[tuple[Any, dict[str, Any]]] = []
        self.checks: dict[tuple[Any, ...], _Check] = {}
        self.twins: dict[int, tuple[InterpretedFunction, JITFunction]] = {}
        self.of_twin: dict[int, InterpretedFunction] = {}
        self.benchmarking = False
        self.benchmarked: set[tuple[Any, ...]] = set()
        self.call_s = 0.0
        self.total_s = 0.0
        self.unavailable = ""
        self.compiler_works: bool | None = None
        self.warnings: list[str] = []
        self.seen: set[str] = set()


_state = _State()


def install() -> None:
    """Make the interpreter look like an H100 (idempotent; only under ``TRITON_INTERPRET=1``)."""
    if _state.installed or not knobs.runtime.interpret:
        return
    _state.installed = True
    _state.pristine = _snapshot()  # before anything is interpreted (see _jit_world)
    triton.runtime.driver.set_active(InterpreterDriver())
    stages.install(TRITON_PROPERTIES["max_shared_mem"])  # checks stop after llir (stages.py)
    if not interpreter_bf16.install():  # bf16 dots and casts as on the GPU (interpreter_bf16.py)
        _warn(
            "bfloat16 tl.dot and casts are not fixed in this Triton's interpreter: bf16 results may be wrong"
        )
    if not torch.cuda.is_available():
        props = CudaProperties()
        torch.cuda.get_device_properties = lambda device=None: props  # type: ignore[assignment,return-value]
        torch.cuda.get_device_capability = lambda device=None: (props.major, props.minor)
    triton.testing.do_bench = do_bench
    triton.testing.do_bench_cudagraph = do_bench_cudagraph
    if {"grid", "warmup"} <= inspect.signature(InterpretedFunction.run).parameters.keys():
        InterpretedFunction.run = _run
    else:  # another interpreter: it runs as it is, and every result says so
        _state.unavailable = f"this Triton's interpreter ({triton.__version__}) is not one we know"
        _warn(f"kernels were not checked against an H100's limits: {_state.unavailable}")


def call_warnings() -> list[str]:
    """The warnings since the last call (each text once per runner); starts a call's budget."""
    out, _state.warnings = _state.warnings, []
    _state.call_s = 0.0
    return out


def _warn(text: str) -> None:
    if text not in _state.seen and len(_state.seen) < MAX_WARNINGS:
        _state.seen.add(text)
        _state.warnings.append(text)
        log.info("%s", text)


# -- the driver ---------------------------------------------------------------------------------
class _Utils:
    def get_device_properties(self, device: Any = None) -> dict[str, int]:
        return dict(TRITON_PROPERTIES)

    def load_binary(self, name: str, cubin: bytes, shared: int, device: Any) -> tuple[Any, ...]:
        """What the CUDA driver reports on loading the kernel: registers from the cubin."""
        regs, frame = _cubin_resources(cubin)
        per_warp = -(-regs * 32 // 256) * 256  # registers are allocated per warp, 256 at a time
        threads = min(1024, TRITON_PROPERTIES["max_num_regs"] // max(per_warp, 1) * 32)
        return name, name, regs, frame // 4, threads

    def unload_module(self, module: Any) -> None:
        pass


class _Launcher:
    """Launches a kernel compiled for sm_90 (``warmup``'s result) by interpreting it."""

    def __init__(self, src: Any, metadata: Any) -> None:
        self.fn = _state.of_twin[id(src.fn)]
        self.nargs = len(src.fn.arg_names)

    def __call__(self, *args: Any) -> Any:
        grid, kernel_args = args[:3], args[len(args) - self.nargs :]
        return self.fn.run(*kernel_args, grid=tuple(grid), warmup=False)


class InterpreterDriver(DriverBase):  # type: ignore[misc]
    """Triton's active driver under the interpreter: the H100's target and figures, CPU tensors."""

    launcher_cls = _Launcher

    def __init__(self) -> None:
        self.utils = _Utils()

    @classmethod
    def is_active(cls) -> bool:
        return False  # never chosen by Triton itself: installed with set_active

    def map_python_to_cpp_type(self, ty: str) -> str:
        return ty

    def get_current_target(self) -> GPUTarget:
        return TARGET

    def get_active_torch_device(self) -> torch.device:
        return torch.device("cpu")

    def get_device_interface(self) -> Any:
        return torch.cpu

    def get_benchmarker(self) -> Callable[..., Any]:
        return _autotune_bench

    def get_current_device(self) -> int:
        return 0

    def set_current_device(self, device: int) -> None:
        pass

    def get_current_stream(self, device: Any = None) -> int:
        return 0

    def get_device_capability(self, device: Any = None) -> tuple[int, int]:
        return 9, 0

    def get_empty_cache_for_benchmark(self) -> torch.Tensor:
        return torch.empty(1024, dtype=torch.int32)

    def clear_cache(self, cache: torch.Tensor) -> None:
        cache.zero_()


# -- timing stand-ins ---------------------------------------------------------------------------
def do_bench(
    fn: Callable[[], Any],
    warmup: int = 25,
    rep: int = 100,
    grad_to_none: Any = None,
    quantiles: Any = None,
    return_mode: str = "mean",
    **kwargs: Any,
) -> Any:
    """``triton.testing.do_bench`` without timing: one call, a fixed time."""
    fn()
    if quantiles is not None:
        return [BENCH_MS] * len(quantiles)
    return [BENCH_MS] if return_mode == "all" else BENCH_MS


def do_bench_cudagraph(
    fn: Callable[[], Any],
    rep: int = 20,
    grad_to_none: Any = None,
    quantiles: Any = None,
    return_mode: str = "mean",
    **kwargs: Any,
) -> Any:
    return do_bench(fn, quantiles=quantiles, return_mode=return_mode)


def _autotune_bench(kernel_call: Callable[[], Any], **kwargs: Any) -> Any:
    """The autotuner's benchmarker: a config runs once per kernel, afterwards it is checked."""
    _state.benchmarking = True
    try:
        return do_bench(kernel_call, **kwargs)
    finally:
        _state.benchmarking = False


# -- launching ----------------------------------------------------------------------------------
def _run(self: InterpretedFunction, *args: Any, grid: Any, warmup: bool, **kwargs: Any) -> Any:
    """``InterpretedFunction.run``: the H100's launch checks, then the interpreter."""
    if warmup:
        return _compile(self, args, kwargs, exact=True)
    check = _check(self, args, kwargs)
    if check is not None and check.refusal is not None:
        raise _Refused(*check.refusal)
    if check is not None and check.scratch and (null := _null_allocator()) is not None:
        null(check.scratch, 128, None)  # raises what the GPU's launcher raises
    if _state.benchmarking:
        config = (id(self.fn), _describe(kwargs))
        if config in _state.benchmarked:
            return None
        _state.benchmarked.add(config)
    return _state.run(self, *args, grid=grid, warmup=warmup, **kwargs)


class _Refused(OutOfResources):  # type: ignore[misc]
    """Triton's OutOfResources (the autotuner skips a config on it), naming kernel and config."""

    def __init__(self, required: int, limit: int, name: str, text: str = "") -> None:
        super().__init__(required, limit, name)
        self.text = text

    def __str__(self) -> str:
        return self.text or str(super().__str__())


# Learners see Triton's own error name, as a GPU's launch would show it.
_Refused.__module__ = OutOfResources.__module__
_Refused.__name__ = _Refused.__qualname__ = OutOfResources.__name__


def _null_allocator() -> Any:
    """Triton's allocator when none was set (it raises), or None."""
    try:
        from triton.runtime import _allocation

        current = _allocation._allocator.get()
        return current if isinstance(current, _allocation.NullAllocator) else None
    except (ImportError, AttributeError):  # not in this Triton: do not guess
        return None


def _describe(value: Any, exact: bool = True) -> Any:
    """A hashable description of an argument; with ``exact=False``, of its type alone, which is
    what the compiler specialises a runtime argument on (``_compile`` compiles integers as 16)."""
    if isinstance(value, dict):
        return tuple(sorted((k, _describe(v, exact)) for k, v in value.items()))
    if isinstance(value, tuple | list):
        return tuple(_describe(v, exact) for v in value)
    if hasattr(value, "data_ptr"):
        return ("tensor", str(value.dtype))
    if type(value).__name__ == "TensorDescriptor":
        return ("desc", str(value.base.dtype), tuple(value.block_shape))
    if isinstance(value, int) and not isinstance(value, bool) and not exact:
        return "i32" if -(2**31) <= value < 2**31 else "i64"
    return repr(value)


def _key(fn: InterpretedFunction, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """What the sm_90 compile depends on: constexprs and options by value, the rest by type."""
    params = _twin(fn).params
    names = {p.name: p.is_constexpr for p in params}
    described = [
        _describe(a, exact=i >= len(params) or params[i].is_constexpr) for i, a in enumerate(args)
    ]
    named = {k: _describe(v, exact=names.get(k, True)) for k, v in kwargs.items()}
    return (id(fn.fn), tuple(described), _describe(named))


def _check(fn: InterpretedFunction, args: tuple[Any, ...], kwargs: dict[str, Any]) -> _Check | None:
    """The H100's verdict on launching ``fn`` so, from the cache or a compile; None: unchecked."""
    name = fn.fn.__name__
    try:
        key = _key(fn, args, kwargs)
    except Exception as e:  # the check itself must never decide a verdict
        _warn(f"{name}: not checked against an H100's limits ({type(e).__name__}: {e})"[:600])
        return None
    if key in _state.checks:
        return _state.checks[key]
    if _state.unavailable:
        _warn(f"{name}: not checked against an H100's limits: {_state.unavailable}")
        return None
    if (
        _state.call_s > CALL_BUDGET_S
        or _state.total_s > TOTAL_BUDGET_S
        or len(_state.checks) >= MAX_KERNELS
    ):
        _warn(
            f"{name}({_config(kwargs)}) ran without being checked against an H100's limits "
            "(shared memory, registers): the time for these checks ran out; a GPU may refuse it"
        )
        return None
    t0, cpu0 = time.monotonic(), _cpu_s()
    result, kernel = _Check(), None
    try:
        with stages.lowered_only():  # up to llir: shared memory and scratch are known there
            kernel = _compile(fn, args, kwargs, exact=False)
        # Only a kernel already in Triton's cache, compiled to the end, gets here.
        result.scratch = int(getattr(kernel.metadata, "global_scratch_size", 0) or 0)
        kernel._init_handles()  # Triton's own launch checks, with the H100's figures
    except stages.Lowered as lowered:
        result.scratch = int(lowered.metadata.get("global_scratch_size") or 0)
    except OutOfResources as e:
        result.refusal = (e.required, e.limit, e.name, _refusal(e, name, kwargs, kernel))
    except Exception as e:
        last = (str(e).strip().splitlines() or [""])[-1][:300]
        if _compiler_works():  # then it is the kernel's own failure, which the GPU shares
            _warn(
                f"{name}({_config(kwargs)}): the interpreter ran it, but Triton does not compile "
                f"it for an H100 (sm_90), so it would fail on a GPU: {type(e).__name__}: {last}"
            )
        else:  # no kernel compiles here (ptxas cannot run, say): check nothing more
            _state.unavailable = (
                f"Triton cannot compile for sm_90 here ({type(e).__name__}: {last})"
            )
            log.info("%s", _state.unavailable)
            _warn(f"{name}: not checked against an H100's limits: {_state.unavailable}")
    spent = min(time.monotonic() - t0, _cpu_s() - cpu0)
    _state.call_s += spent
    _state.total_s += spent
    log.debug("sm_90 check of %s took %.2f s", name, spent)
    _state.checks[key] = result
    return result


def _cpu_s() -> float:
    """CPU seconds of this process and of its children it has waited for (ptxas)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _config(kwargs: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in kwargs.items() if not hasattr(v, "data_ptr"))


def _refusal(e: OutOfResources, name: str, kwargs: dict[str, Any], kernel: Any) -> str:
    where = f"{name}({_config(kwargs)}) cannot launch on an H100 (sm_90)"
    if e.name == "shared memory":
        why = f"it needs {e.required} bytes of shared memory per block, the GPU has {e.limit}"
    elif e.name == "threads":
        regs = getattr(kernel, "n_regs", "?")
        why = (
            f"it runs {e.required} threads per block, but at {regs} registers per thread the "
            f"GPU's 65536 registers per block allow {e.limit}"
        )
    else:
        why = f"it needs {e.required} of {e.name}, the GPU has {e.limit}"
    return f"{where}: {why}. Reducing block sizes, num_stages or num_warps may help."


# -- compiling for sm_90 ------------------------------------------------------------------------
def _compile(
    fn: InterpretedFunction, args: tuple[Any, ...], kwargs: dict[str, Any], exact: bool
) -> Any:
    """The kernel compiled for the H100 with Triton's own JIT (its cache, its specialisation)."""
    twin = _twin(fn)
    if not exact:  # compile integers as multiples of 16: their general case
        params = twin.params
        args = tuple(
            _int16(a) if i < len(params) and not params[i].is_constexpr else a
            for i, a in enumerate(args)
        )
        runtime = {p.name for p in params if not p.is_constexpr}
        kwargs = {k: _int16(v) if k in runtime else v for k, v in kwargs.items()}
    with _jit_world(fn.fn.__globals__):
        return twin.warmup(*args, grid=(1,), **kwargs)


def _int16(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool) and -(2**31) <= value < 2**31:
        return 16
    return value


def _probe(x_ptr, SALT: tl.constexpr):  # type: ignore[no-untyped-def]
    tl.store(x_ptr, SALT)


def _compiler_works() -> bool:
    """Whether a kernel that surely compiles does: tells the environment's failures (no ptxas)
    from a kernel's own."""
    if _state.compiler_works is None:
        try:
            with _jit_world(_probe.__globals__):
                salt = time.monotonic_ns() % 1000003  # not from Triton's cache: compiled now
                with stages.lowered_only():
                    JITFunction(_probe).warmup(torch.empty(1), SALT=salt, grid=(1,))
            _state.compiler_works = True
        except stages.Lowered:
            _state.compiler_works = True
        except Exception:
            log.info("Triton cannot compile for sm_90 here", exc_info=True)
            _state.compiler_works = False
    return _state.compiler_works


def _twin(fn: InterpretedFunction) -> JITFunction:
    """The JITFunction ``@triton.jit`` would have made of the same Python function on a GPU."""
    pair = _state.twins.get(id(fn))
    if pair is None:
        pair = _state.twins[id(fn)] = (fn, JITFunction(fn.fn, **fn.kwargs))  # fn kept alive
        _state.of_twin[id(pair[1])] = fn
    return pair[1]


def _language_objects() -> list[Any]:
    """What the interpreter patches while it runs (Triton's ``_patch_lang``): the language
    modules and a few of their classes."""
    mods = [m for n, m in list(sys.modules.items()) if n.startswith("triton.language") and m]
    names = ("tensor", "dtype", "condition", "tensor_descriptor_base")
    return mods + [c for c in (getattr(tl.core, n, None) for n in names) if c is not None]


def _snapshot() -> list[tuple[Any, dict[str, Any]]]:
    return [(obj, dict(vars(obj))) for obj in _language_objects()]


_MISSING = object()


def _as_jit(owner: Any, value: Any) -> Any:
    if isinstance(value, InterpretedFunction):
        return _twin(value)
    if owner is tl.core.tensor:  # x.sum(): a wrapper around tl.sum
        for cell in getattr(value, "__closure__", None) or ():
            if isinstance(cell.cell_contents, InterpretedFunction):
                return _twin(cell.cell_contents)
    return value


@contextlib.contextmanager
def _jit_world(scope: dict[str, Any]) -> Iterator[None]:
    """While compiling, the language as Triton built it for a GPU: its ``@triton.jit`` functions
    (the standard library, the submission's helpers) are JITFunctions, interpret mode is off, and
    what the interpreter patched into the language while running (some of it never restored,
    e.g. after a helper call) is set aside."""
    undo: list[tuple[Any, str, Any]] = []

    def put(obj: Any, name: str, value: Any) -> None:
        if isinstance(obj, dict):
            undo.append((obj, name, obj.get(name, _MISSING)))
            obj[name] = value
            return
        undo.append((obj, name, vars(obj).get(name, _MISSING)))
        if value is _MISSING:
            delattr(obj, name)
        else:
            setattr(obj, name, value)

    for obj, pristine in _state.pristine:
        current = dict(vars(obj))
        for name in current.keys() | pristine.keys():
            want = _as_jit(obj, pristine.get(name, _MISSING))
            if want is not current.get(name, _MISSING):
                put(obj, name, want)
    known = {id(obj) for obj, _ in _state.pristine}
    later = [vars(m) for m in _language_objects() if id(m) not in known]  # imported since
    todo, done = [scope, *later], set()
    while todo:  # the kernel's module, and the modules of the helpers it calls
        names = todo.pop()
        if id(names) in done:
            continue
        done.add(id(names))
        for name, value in list(names.items()):
            if isinstance(value, InterpretedFunction):
                put(names, name, _twin(value))
                todo.append(value.fn.__globals__)
    try:
        with knobs.runtime.scope(), warnings.catch_warnings():
            knobs.runtime.interpret = False
            warnings.simplefilter("ignore")  # e.g. Triton 3.9's note on FP fusion defaults
            yield
    finally:
        for obj, name, value in reversed(undo):
            if isinstance(obj, dict):
                obj[name] = value
            elif value is _MISSING:
                delattr(obj, name)
            else:
                setattr(obj, name, value)


def _cubin_resources(cubin: bytes) -> tuple[int, int]:
    """(registers per thread, stack frame bytes) from a cubin's ``.nv.info`` attributes."""
    regs = frame = 0
    shoff = struct.unpack_from("<Q", cubin, 0x28)[0]
    entsize, count, strndx = struct.unpack_from("<HHH", cubin, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", cubin, shoff + i * entsize) for i in range(count)]
    names = headers[strndx][4]
    for h in headers:
        name = cubin[names + h[0] : cubin.index(b"\0", names + h[0])]
        if name != b".nv.info":
            continue
        pos, end = h[4], h[4] + h[5]
        while pos + 4 <= end:
            fmt, attr, size = struct.unpack_from("<BBH", cubin, pos)
            if fmt != 0x04:  # EIFMT_SVAL carries `size` bytes; the others fit in these 4
                pos += 4
                continue
            if size == 8 and attr in (0x2F, 0x11):  # EIATTR_REGCOUNT, EIATTR_FRAME_SIZE
                value = struct.unpack_from("<I", cubin, pos + 8)[0]
                if attr == 0x2F:
                    regs = max(regs, value)
                else:
                    frame = max(frame, value)
            pos += 4 + size
    return regs, frame
