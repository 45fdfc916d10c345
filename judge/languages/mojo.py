"""Mojo: a ``.mojo`` file defining ``@export def solve(...) raises`` on device pointers, which
launches its kernels through ``DeviceContext`` (LeetGPU's convention, in Mojo 0.26.2's syntax).

The referee checks the source (mojo_rules.py) and builds it with the pinned ``mojo-compiler``
into a shared library (build/mojo_build.py); the runner calls it through ctypes with the judge's
device pointers, like a CUDA submission. Without a GPU it is compiled only and reported as not
run. Streams: docs/languages.md, "Mojo".
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from judge.languages import mojo_rules
from judge.languages.base import Language, shapes_comment
from judge.languages.runtime import Loaded, Prepared, Refused, RunContext, SubmissionError

if TYPE_CHECKING:
    from judge.problem.schema import Problem

_SIMPLE = re.compile(r"[A-Za-z_]\w*|\d+")  # a shape entry that is also a Mojo expression
# Mojo's runtime repeats this under each error; the learner cannot set the judge's environment.
_NOISE = re.compile(r"^To get more accurate error information, set MODULAR_\w+=true\.\n?", re.M)


def _params(problem: Problem, indent: str) -> str:
    from judge.build.mojo_build import param

    return f",\n{indent}".join(
        param(a.name, a.dtype if a.is_tensor else None) for a in problem.args
    )


class Mojo(Language):
    """Checked and built by the referee, called in the runner through the judge's entry
    (``kerneldojo_solve``), whose error buffer carries a raised error's text."""

    name: ClassVar[str] = "mojo"
    label: ClassVar[str] = "Mojo"
    menu_label: ClassVar[str] = "Mojo"
    suffix: ClassVar[str] = ".mojo"
    editor_mode: ClassVar[str] = "python"  # no CodeMirror 6 Mojo mode on npm: Python's syntax
    comment: ClassVar[str] = "#"
    runs_on_cpu: ClassVar[bool] = False
    markers: ClassVar[tuple[str, ...]] = ("mojo",)

    def signature(self, problem: Problem) -> str:
        return f"def solve({_params(problem, '')}) raises".replace(",\n", ", ")

    def generate_starter(self, problem: Problem) -> str:
        from judge.build.mojo_build import mojo_name

        out = problem.outputs[0]
        call_args = ", ".join(mojo_name(a.name) for a in problem.args)
        ints = {a.name for a in problem.args if not a.is_tensor}
        if all(_SIMPLE.fullmatch(s) for s in out.shape):
            total = " * ".join(f"Int({mojo_name(s)})" if s in ints else s for s in out.shape)
        else:
            total = "1  # TODO: the number of elements of " + out.name
        return f"""from std.gpu import block_dim, block_idx, thread_idx
from std.gpu.host import DeviceContext
from std.math import ceildiv


fn solve_kernel(
    {_params(problem, "    ")},
):
    # TODO: thread i computes element i of {mojo_name(out.name)} (return if i is past its end).
    var i = Int(block_idx.x * block_dim.x + thread_idx.x)
    _ = i


{shapes_comment(problem, "#")}
# Device pointers to contiguous arrays; launch your kernel(s) through a DeviceContext.
@export
def solve(
    {_params(problem, "    ")},
) raises:
    var total = {total}  # elements of {mojo_name(out.name)}
    comptime BLOCK = 256
    var ctx = DeviceContext()
    ctx.enqueue_function[solve_kernel, solve_kernel](
        {call_args},
        grid_dim=ceildiv(total, BLOCK),
        block_dim=BLOCK,
    )
    ctx.synchronize()
"""

    def kernel_owner(self, source: str) -> Callable[[str], bool] | None:
        return mojo_rules.owner(source)

    def prepare(
        self, source: str, workdir: Path, problem: Problem, *, static_policy: bool, compile_s: float
    ) -> Prepared:
        from judge.build import mojo_build

        if static_policy and (why := mojo_rules.check(source)):
            raise Refused("rejected", why)
        t0 = time.monotonic()
        res, lib, violation = mojo_build.compile_mojo(source, workdir, problem, compile_s)
        took = time.monotonic() - t0
        if not res.ok:
            raise Refused("compile_error", "mojo could not compile the submission", res, took)
        if violation is not None:
            raise Refused("rejected", violation, res, took)
        assert lib is not None
        return Prepared(lib.name, res, took)

    def load(self, path: Path, ctx: RunContext) -> Loaded:
        import ctypes
        import os

        from judge.build.mojo_build import ERROR_BYTES

        try:
            lib = ctypes.CDLL(str(path), mode=os.RTLD_LOCAL | os.RTLD_NOW)
        except OSError as e:  # the runtime libraries are the host's: never the learner's fault
            raise RuntimeError(f"the Mojo runtime could not be loaded: {e}") from e
        entry = lib.kerneldojo_solve
        types = [ctypes.c_void_p if t == "ptr" else ctypes.c_int32 for t in ctx.argtypes]
        entry.argtypes = [*types, ctypes.c_char_p, ctypes.c_ssize_t]
        entry.restype = ctypes.c_int32
        return _MojoLoaded(entry, ctypes.create_string_buffer(ERROR_BYTES), ctx)


class _MojoLoaded(Loaded):
    def __init__(self, entry: Any, error: Any, ctx: RunContext) -> None:
        self.entry, self.error, self.ctx = entry, error, ctx

    def invoke(self, args: list[Any]) -> Any:
        plain = [a.data_ptr() if hasattr(a, "data_ptr") else a for a in args]
        if self.entry(*plain, self.error, len(self.error)) != 0:
            text = _NOISE.sub("", self.error.value.decode("utf-8", "replace")).strip()
            raise SubmissionError(
                "memory_limit_exceeded" if "OUT_OF_MEMORY" in text else "runtime_error",
                f"solve raised: {text}",
            )
        return None

    def synchronize(self) -> None:
        # Mojo's DeviceContext stream is in torch's (primary) context: a device-wide synchronize
        # waits for it and reports a kernel's fault.
        if self.ctx.device == "cuda":
            self.ctx.torch.cuda.synchronize()


LANGUAGE = Mojo()
