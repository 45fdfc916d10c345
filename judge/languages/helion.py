"""Helion: a Python file whose ``solve(...)`` calls ``@helion.kernel`` functions (PyTorch's tile
DSL) on the judge's torch tensors. Helion compiles each kernel through Triton, so a CPU worker
runs it under Triton's interpreter, as it runs Triton.

The learner's convention: each kernel carries one fixed ``helion.Config``; the judge does not
autotune (``HELION_AUTOTUNE_EFFORT=none``, and
helion_rules.py refuses the keywords that would ask for it). Helion compiles a kernel at its
first call for each set of sizes (``static_shapes``), inside ``solve``: the compile limit covers
it (``jit``). The compiler traces the kernel's torch calls on fake tensors, which the library
rule lets through (sandbox/rules.py); the host code around the device loops runs as torch on
the judge's tensors, under that rule. See docs/languages.md, "Helion".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from judge.languages import helion_rules, kernel_names
from judge.languages.base import shapes_comment
from judge.languages.python import PythonLanguage
from judge.languages.runtime import Loaded, RunContext

if TYPE_CHECKING:
    from judge.problem.schema import Problem

# Helion names the Triton kernel it generates for ``def f`` ``_helion_f``
# (helion/_compiler/generate_ast.py: ``DeviceFunction(f"_helion_{func.name}", ...)``, 1.5.1).
KERNEL_PREFIX = "_helion_"

_SETTINGS = "it changes how Helion runs kernels (reference mode, backends, the autotuner)"
_FILES_CODE = "it reads or writes compiled kernels as files, or runs them in other processes"
_CODE_STRING = (
    "it compiles a string of Triton code the judge cannot check (on the CPU it runs as Python)"
)


class Helion(PythonLanguage):
    name: ClassVar[str] = "helion"
    starter_stem: ClassVar[str] = "helion"  # starter/helion.py: .py is Triton's first
    label: ClassVar[str] = "Helion"
    menu_label: ClassVar[str] = "Helion (Python)"
    markers: ClassVar[tuple[str, ...]] = ("helion",)
    packages: ClassVar[frozenset[str]] = frozenset({"torch", "helion", "numpy"})
    denied_paths: ClassVar[Mapping[str, str]] = {
        "helion.runtime": _SETTINGS,
        "helion.Settings": _SETTINGS,
        "helion.RefMode": _SETTINGS,
        "helion.Kernel": "declare kernels with @helion.kernel(config=helion.Config(...))",
        "helion.autotuner": _SETTINGS,
        "helion.experimental": _FILES_CODE,
        "helion.aot_kernel": _FILES_CODE,
        "helion.from_cache": _FILES_CODE,
        "helion.language.inline_triton": _CODE_STRING,
    }
    # hl.tile, hl.zeros, hl.atomic_add: DSL functions, not a container's mutators.
    function_modules: ClassVar[frozenset[str]] = frozenset({"helion.language"})

    def runner_env(self, device: str) -> dict[str, str]:
        # No autotuning on the judge: a kernel without a config gets Helion's default one.
        env = {"HELION_AUTOTUNE_EFFORT": "none"}
        if device == "cpu":
            env["TRITON_INTERPRET"] = "1"  # Helion's Triton kernels under Triton's interpreter
        return env

    def kernel_owner(self, source: str) -> Callable[[str], bool] | None:
        return helion_owner(source)

    def check_source(self, source: str, problem: Problem) -> object | None:
        return helion_rules.check(source, library_rule=self.library_rule(problem))

    def load(self, path: Path, ctx: RunContext) -> Loaded:
        if ctx.device == "cpu":
            interpreter_libdevice()
            interpreter_reductions()
        return super().load(path, ctx)

    def generate_starter(self, problem: Problem) -> str:
        out = problem.outputs[0]
        params = ", ".join(
            f"{a.name}: torch.Tensor" if a.is_tensor else f"{a.name}: int" for a in problem.args
        )
        names = ", ".join(a.name for a in problem.args)
        return f"""import torch
import helion
import helion.language as hl


@helion.kernel(config=helion.Config(block_sizes=[1024]))
def solve_kernel({params}) -> None:
    flat = {out.name}.view(-1)
    for tile in hl.tile(flat.size(0)):
        # TODO: compute this tile of {out.name} from the inputs (hl.tile over each dimension
        # for 2-D work, with one block size each in the config). The zeros are a placeholder.
        flat[tile] = hl.zeros([tile], dtype=flat.dtype)


{shapes_comment(problem, "#")}
# Contiguous tensors on the GPU; write the result into the output and return nothing. The
# judge does not autotune: give each kernel one helion.Config.
def solve({params}):
    solve_kernel({names})
"""


def helion_owner(source: str) -> Callable[[str], bool]:
    """The submission's kernels for the ledger: ``_helion_<f>`` for a function ``f`` its source
    defines (Triton's rule on what follows the prefix: library names are never its own)."""
    triton = kernel_names.triton_owner(source)

    def owns(name: str) -> bool:
        return name.startswith(KERNEL_PREFIX) and triton(name.removeprefix(KERNEL_PREFIX))

    return owns


# Math functions Helion's kernels call through inductor's ``libdevice`` that ``tl.math`` lacks,
# written with ``tl.math`` for the interpreter.
def _tanh(x: Any) -> Any:
    import triton.language as tl

    return 1.0 - 2.0 / (tl.math.exp(2.0 * x) + 1.0)


def _log1p(x: Any) -> Any:
    import triton.language as tl

    return tl.math.log(1.0 + x)


def _expm1(x: Any) -> Any:
    import triton.language as tl

    return tl.math.exp(x) - 1.0


_EXTRA: dict[str, Callable[[Any], Any]] = {"tanh": _tanh, "log1p": _log1p, "expm1": _expm1}


class _InterpretedLibdevice:
    """``libdevice`` for kernels under Triton's interpreter.

    Helion's generated kernels import inductor's ``libdevice`` (``torch._inductor.runtime.
    triton_compat``: CUDA's libdevice, ``libdevice.exp(v)`` for ``torch.exp``). Its functions
    are external calls into CUDA's bitcode, which Triton's interpreter cannot run (3.9: they
    return None, and the kernel fails on ``'NoneType' object has no attribute 'dtype'``). Here a
    name resolves to ``tl.math``'s function at call time (the interpreter patches those while a
    kernel runs), else to one of ``_EXTRA``; any other is an error naming the function."""

    def __getattr__(self, name: str) -> Any:
        import triton.language as tl

        if name.startswith("__"):
            raise AttributeError(name)
        if hasattr(tl.math, name):
            return getattr(tl.math, name)
        if name in _EXTRA:
            return _EXTRA[name]
        raise AttributeError(
            f"libdevice.{name} does not run under the CPU interpreter (only tl.math's functions "
            f"and {', '.join(sorted(_EXTRA))} do): this kernel can be graded on a GPU"
        )


def interpreter_libdevice() -> None:
    """Give the kernels Helion generates from now on the interpreter's ``libdevice`` (only the
    runner of a Helion submission on the CPU: nothing else there uses inductor's)."""
    from torch._inductor.runtime import triton_compat

    triton_compat.libdevice = _InterpretedLibdevice()


def _wide(x: Any) -> Any:
    """As Helion's helper does before reducing: floats and ints narrower than 32 bits widened."""
    import triton.language as tl

    if x.dtype.primitive_bitwidth < 32:
        return x.to(tl.float32 if x.dtype.is_floating() else tl.int32)
    return x


def _max_propagate_nan(x: Any, dim: Any) -> Any:
    import triton.language as tl

    return tl.max(_wide(x), dim)  # the interpreter's max is NumPy's, which propagates NaN


def _min_propagate_nan(x: Any, dim: Any) -> Any:
    import triton.language as tl

    return tl.min(_wide(x), dim)


def interpreter_reductions() -> None:
    """Fast ``torch.amax``/``amin`` for Helion's kernels under the interpreter.

    Helion lowers them to ``max_propagate_nan`` (helion/runtime/triton/helpers.py, 1.5.1): a
    ``tl.reduce`` with a combine function, which Triton's interpreter runs element by element in
    Python: a softmax over one row of 30003 floats took 43 s of its 46 there (cProfile,
    ``generic_reduce``). ``tl.max``/``tl.min`` run as NumPy reductions, which return NaN when
    any element is NaN, as the helpers do. Generated kernels look the helpers up on the module
    at each call, so replacing them there is enough."""
    from helion.runtime.triton import helpers

    helpers.max_propagate_nan = _max_propagate_nan
    helpers.min_propagate_nan = _min_propagate_nan


LANGUAGE = Helion()
