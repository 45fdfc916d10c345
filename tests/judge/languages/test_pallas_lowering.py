"""Pallas' GPU lowering, checked on the CPU (judge/languages/pallas_lowering.py): every
Pallas sample lowers through Triton at its problem's benchmark sizes; a kernel the interpreter
runs but the lowering refuses fails the check, and on a CPU worker it is accepted with a warning.

JAX runs in child processes here, as in test_pallas.py (it starts threads when imported, and
the test process forks runners and servers)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from judge.grader import grade
from judge.problem import loader
from judge.problem.loader import load_problem
from tests.conftest import FIXTURE_PROBLEMS

ROOT = Path(__file__).resolve().parents[3]

# conv2d in the form of its first Pallas sample (removed from problems/conv2d): one instance per
# 16 x 16 tile, r * r taps in one loop, each tap's shifted tile gathered with clamped index
# arrays and its outside lanes zeroed. The interpreter graded it accepted; on an H100, Pallas'
# Triton lowering failed with AssertionError: ('i32', 'i1'). The cause is `t % r` on the loop
# index (jnp.remainder with a Python int), not the gather: REMAINDER is swapped for lax.rem
# below and the same kernel lowers.
CONV2D_TAPS = """import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu

T = 16


def conv_kernel(x_ref, f_ref, y_ref, *, h, w, r):
    rows = pl.program_id(0) * T + jnp.arange(T)
    cols = pl.program_id(1) * T + jnp.arange(T)

    def tap(t, acc):
        a, b = t // r, REMAINDER
        s = rows[:, None] + a - r // 2
        u = cols[None, :] + b - r // 2
        x = x_ref[jnp.clip(s, 0, h - 1), jnp.clip(u, 0, w - 1)]
        inside = (s >= 0) & (s < h) & (u >= 0) & (u < w)
        return acc + jnp.where(inside, x, 0.0) * f_ref[a, b]

    acc = jax.lax.fori_loop(0, r * r, tap, jnp.zeros((T, T), jnp.float32))
    plgpu.store(y_ref, acc, mask=(rows[:, None] < h) & (cols[None, :] < w))


def solve(x, f, y, h, w, r):
    return pl.pallas_call(
        functools.partial(conv_kernel, h=h, w=w, r=r),
        out_shape=y,
        grid=(pl.cdiv(h, T), pl.cdiv(w, T)),
        out_specs=pl.BlockSpec(block_shape=(T, T), index_map=lambda i, j: (i, j)),
    )(x, f)
"""

CHECK_FILES = """import json, sys
from pathlib import Path
from judge.problem import loader
from judge.languages import pallas_lowering
p = loader.resolve("conv2d", loader.REPO_PROBLEMS)
print(json.dumps({f: pallas_lowering.check_sample(Path(f), p, p.benchmarks) for f in sys.argv[1:]}))
"""


def _child(*args: str) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, cwd=ROOT, timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return dict(json.loads(proc.stdout[proc.stdout.index("{") :]))


def test_every_pallas_sample_lowers_for_the_gpu() -> None:
    report = _child("scripts/check_pallas_lowering.py")
    samples = {
        f"{p.slug}/{s.path.parent.name}/{s.path.name}"
        for p in loader.load_all(loader.REPO_PROBLEMS).problems
        for s in p.samples
        if s.language == "pallas"
    }
    assert set(report) == samples
    assert any(name.endswith("/accepted/pallas_simple.py") for name in report)
    failed = {name: errors for name, errors in report.items() if any(errors.values())}
    assert failed == {}
    assert all(report.values()), "a sample was checked at no benchmark case"


def test_a_loop_index_remainder_does_not_lower(tmp_path: Path) -> None:
    failing, fixed = tmp_path / "remainder.py", tmp_path / "lax_rem.py"
    failing.write_text(CONV2D_TAPS.replace("REMAINDER", "t % r"))
    fixed.write_text(CONV2D_TAPS.replace("REMAINDER", "jax.lax.rem(t, r)"))
    report = _child("-c", CHECK_FILES, str(failing), str(fixed))
    errors = set(report[str(failing)].values())
    assert errors == {"AssertionError: ('i32', 'i1')"}, errors
    assert set(report[str(fixed)].values()) == {None}


# toy-add's sum in 1024-wide masked blocks (the lowering wants power-of-2 arrays), through a
# two-step loop: step t adds a * (t % 2), so b + a in the end. PLAIN adds without the loop.
LOOP_ADD = """import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu


def add_kernel(a_ref, b_ref, c_ref, *, n):
    mask = pl.program_id(0) * 1024 + jnp.arange(1024) < n
    a = plgpu.load(a_ref, mask=mask, other=0.0)

    def step(t, acc):
        return acc + a * (t % 2)

    plgpu.store(c_ref, jax.lax.fori_loop(0, 2, step, plgpu.load(b_ref, mask=mask)), mask=mask)


def solve(a, b, c, n):
    spec = pl.BlockSpec(block_shape=(1024,), index_map=lambda i: (i,))
    return pl.pallas_call(
        lambda a_ref, b_ref, c_ref: add_kernel(a_ref, b_ref, c_ref, n=n),
        out_shape=c,
        grid=(pl.cdiv(n, 1024),),
        in_specs=[spec, spec],
        out_specs=spec,
    )(a, b)
"""
PLAIN = LOOP_ADD.replace("fori_loop(0, 2, step, ", "fori_loop(0, 0, step, ").replace(
    "a * (t % 2)", "a * t"
)


def test_the_cpu_worker_warns_of_what_a_gpu_would_not_lower() -> None:
    toy = load_problem(FIXTURE_PROBLEMS / "toy-add")
    r = grade(toy, LOOP_ADD, "pallas", device="cpu")
    assert r.verdict == "accepted", r.message
    lowering = [w for w in r.warnings if "does not lower for a GPU" in w]
    assert len(lowering) == 1, r.warnings
    assert lowering[0].endswith(
        "with sizes 3 (checked on the CPU): AssertionError: ('i32', 'i1'). The interpreter ran "
        "it; a GPU worker would not"
    ), lowering[0]
    assert "\n" not in lowering[0] and "Traceback" not in lowering[0]


def test_no_warning_for_what_lowers() -> None:
    r = grade(load_problem(FIXTURE_PROBLEMS / "toy-add"), PLAIN, "pallas", device="cpu")
    assert r.verdict == "wrong_answer", r.message  # b alone: the loop runs no step
    assert not [w for w in r.warnings if "lower" in w], r.warnings
