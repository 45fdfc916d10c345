#!/usr/bin/env python3
"""How many kernels a Triton sample compiles for the judge's H100, and how long that takes here.

    python3 benchmarks/compile_count.py radix-sort triton_fast.py [--threads N] [--json]

No GPU needed. The judge's precompile step (judge/build/precompile.py) calls ``solve`` once
per test case and benchmark case (a submission's grading) on scratch tensors of the case's
shapes, each Triton launch turned into a compile-only warm-up in a thread pool. This does the
same, with the same code, in this process: Triton's real JIT (not the interpreter) with the
interpreter module's stand-in driver (``judge.sandbox.interpreter.InterpreterDriver``: target
``cuda``, capability 90, warp size 32) and CPU tensors as the placeholders, so every launch
goes through Triton's own binder and specialisation (integers equal to 1 or multiples of 16,
pointer alignment, constexprs) and compiles for sm_90 with the ptxas in Triton's wheel, in a
fresh cache. It prints each kernel's specialisations (the arguments, constexprs and options
that differ between them: ``n:i32/D`` an int divisible by 16, ``n=1`` one compiled as the
constant 1) and precompile's counts: ``kernels`` is what a GPU grading's phase
``precompile_kernels`` records; ``seconds`` the wall time on this machine's cores (``--threads``,
default precompile's own choice), ``cpu_seconds`` the CPU time of this process and its ptxas
children, which a busy machine changes less. The H100 host compiles on 16 threads of other
cores: compare counts across machines, times only on one. ``--count-only`` lists the
specialisations without compiling (seconds instead of minutes).
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def _module(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location("solution", path)
    if spec is None or spec.loader is None:
        sys.exit(f"{path}: not a Python file that can be imported")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["solution"] = mod
    spec.loader.exec_module(mod)
    return mod


def _sample(problem: Any, name: str) -> Path:
    for s in problem.samples:
        if name in (s.path.name, str(s.path), f"{s.path.parent.name}/{s.path.name}"):
            return Path(s.path)
    if Path(name).is_file():
        return Path(name)
    names = ", ".join(sorted(s.path.name for s in problem.samples if s.path.suffix == ".py"))
    sys.exit(f"{problem.slug}: no sample {name!r} (its Python samples: {names})")


def _jit_functions(mod: Any) -> dict[str, Any]:
    """The sample's ``@triton.jit`` kernels, autotuned or not, by name."""
    from triton.runtime.autotuner import Autotuner, Heuristics
    from triton.runtime.jit import JITFunction

    out: dict[str, Any] = {}
    for name, value in vars(mod).items():
        fn = value
        while isinstance(fn, Autotuner | Heuristics):
            fn = fn.fn
        if isinstance(fn, JITFunction):
            out[name] = fn
    return out


def _specialisations(fn: Any) -> list[str]:
    """The cache keys of a JIT function's compiled kernels (one per specialisation)."""
    keys: list[str] = []
    for caches in fn.device_caches.values():
        keys.extend(str(k) for k in caches[0])
    return keys


def _record_only() -> dict[int, set[str]]:
    """From now on a kernel that would compile records its cache key instead (``--count-only``)."""
    from triton.runtime.jit import JITFunction

    seen: dict[int, set[str]] = {}

    def record(self: Any, key: str, *args: Any, **kwargs: Any) -> None:
        seen.setdefault(id(self), set()).add(key)

    JITFunction._do_compile = record
    return seen


def _cpu_s() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _entries(key: str) -> dict[str, str] | None:
    """A cache key (the specialisation list's repr, then the options' dict) as one string per
    argument, in order, then one per option; None if it does not read so."""
    end, depth = -1, 0
    for pos, ch in enumerate(key):
        depth += {"[": 1, "(": 1, "]": -1, ")": -1}.get(ch, 0)
        if depth == 0:
            end = pos + 1
            break
    try:
        spec = ast.literal_eval(key[:end])
        options = ast.literal_eval(key[end:])
    except (ValueError, SyntaxError):
        return None
    if not isinstance(spec, list) or not isinstance(options, dict):
        return None
    out = {f"#{i}": _spelled(e) for i, e in enumerate(spec)}
    out.update({f"option {k}": f"={v!r}" for k, v in options.items()})
    return out


def _spelled(entry: Any) -> str:
    if isinstance(entry, tuple) and len(entry) == 2 and entry[0] == "constexpr":
        return f"={entry[1]!r}"
    if isinstance(entry, tuple) and len(entry) == 2:
        return f":{entry[0]}{'/' + entry[1] if entry[1] else ''}"  # "D": divisible by 16
    return f":{entry!r}"


def _differences(fn: Any, keys: list[str]) -> list[str]:
    """Each specialisation as the arguments and options that are not the same in all of them,
    e.g. ``n:i32/D tiles=1 num_warps=8`` (an int divisible by 16; an int compiled as the
    constant 1; an option)."""
    rows = [_entries(k) for k in keys]
    if any(r is None for r in rows):
        return keys
    parsed = [r for r in rows if r is not None]
    names = {f"#{i}": n for i, n in enumerate(fn.arg_names)}
    columns = list(dict.fromkeys(c for r in parsed for c in r))
    varies = [c for c in columns if len({r.get(c, "") for r in parsed}) > 1]
    out = []
    for r in parsed:
        words = [names.get(c, c.removeprefix("option ")) + r.get(c, "=?") for c in varies]
        out.append(" ".join(words) or "(one)")
    return sorted(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("problem", help="a problem's slug or folder")
    ap.add_argument("sample", help="a Triton sample's file name (or path)")
    ap.add_argument("--threads", type=int, help="compile threads (default: precompile.THREADS)")
    ap.add_argument("--tests-only", action="store_true", help="a Run: no benchmark cases")
    ap.add_argument(
        "--count-only", action="store_true", help="list the specialisations, compile nothing"
    )
    ap.add_argument("--json", action="store_true", help="one JSON object on stdout")
    ns = ap.parse_args()
    if os.environ.get("TRITON_INTERPRET") == "1":
        sys.exit("unset TRITON_INTERPRET: this compiles with Triton's JIT, not the interpreter")
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="kd-compile-count-")

    import torch
    import triton

    from judge.build import autotune, precompile
    from judge.problem import loader
    from judge.sandbox import interpreter

    if not precompile.available():
        sys.exit(
            f"Triton {triton.__version__} has no AsyncCompileMode (the judge compiles in series)"
        )
    triton.runtime.driver.set_active(interpreter.InterpreterDriver())
    props = interpreter.CudaProperties()  # as the CPU runner answers a sample that asks
    torch.cuda.get_device_properties = lambda device=None: props  # type: ignore[assignment,return-value]
    torch.cuda.get_device_capability = lambda device=None: (props.major, props.minor)
    if ns.threads:
        precompile.THREADS = ns.threads

    p = loader.resolve(ns.problem)
    path = _sample(p, ns.sample)
    mod = _module(path)
    cases = [precompile.placeholder(p, c, autotune.TUNE_FIRST) for c in p.tests]
    if not ns.tests_only:
        cases += [precompile.placeholder(p, c, autotune.TUNE_FULL) for c in p.benchmarks]

    def invoke(args: list[Any]) -> None:
        mod.solve(*args)

    fns = _jit_functions(mod)
    t0, c0 = time.monotonic(), _cpu_s()
    if ns.count_only:
        seen = _record_only()
        counts = precompile.run(invoke, cases, torch, "cpu", lambda done, total: None)
        per_kernel = {name: sorted(seen.get(id(fn), set())) for name, fn in fns.items()}
        counts["kernels"] = sum(len(v) for v in seen.values())
    else:
        counts = precompile.run(invoke, cases, torch, "cpu", lambda done, total: None)
        per_kernel = {name: _specialisations(fn) for name, fn in fns.items()}
    wall, cpu = time.monotonic() - t0, _cpu_s() - c0
    report = {
        "problem": p.slug,
        "sample": str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path),
        "triton": triton.__version__,
        "cases": len(cases),
        "kernels": counts["kernels"],
        "failed": counts["failed"],
        "cases_cut_short": counts["cases_cut_short"],
        "threads": counts["threads"],
        "seconds": round(wall, 2),
        "cpu_seconds": round(cpu, 2),  # this process and its children (ptxas): the load aside
        "per_kernel": {k: len(v) for k, v in per_kernel.items()},
        "specialisations": {k: _differences(fns[k], v) for k, v in per_kernel.items()},
    }
    if ns.json:
        print(json.dumps(report, indent=1))
        return
    if ns.count_only:
        done = f"{report['kernels']} kernels to compile for sm_90 (--count-only)"
    else:
        done = (
            f"{report['kernels']} kernels compiled for sm_90 ({report['failed']} failed) in "
            f"{report['seconds']} s, {report['cpu_seconds']} s of CPU, {report['threads']} threads"
        )
    print(
        f"{p.slug} {path.name}, Triton {triton.__version__}: {done}; {len(cases)} cases, "
        f"{report['cases_cut_short']} cut short"
    )
    for name, diffs in report["specialisations"].items():
        if diffs:  # a helper called by the kernels is compiled inside them: none of its own
            print(f"  {name}: {len(diffs)}")
            for d in diffs:
                print(f"    {d}")


if __name__ == "__main__":
    main()
