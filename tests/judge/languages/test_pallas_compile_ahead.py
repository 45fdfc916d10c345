"""Pallas compiles every case's sizes ahead of the tests, in threads (pallas.py compile_ahead):
the real calls then find them compiled. In a child process (Pallas' interpret switch is
process-wide), with the radix-sort sample; nothing runs while compiling."""

from __future__ import annotations

from pathlib import Path

from judge import languages
from tests.child_report import run_child

CHILD = r"""
import json
import torch

from judge import languages
from judge.build import precompile
from judge.languages.runtime import RunContext
from judge.problem import loader
from judge.sandbox import runner

problem = loader.resolve("radix-sort")
lang = languages.require("pallas")
ctx = RunContext(
    device="cpu", argtypes=[], forbid_library=True, torch=torch, classify=runner.classify,
    roles=[a.role for a in problem.args],
)
loaded = lang.load(problem.path / "solutions/accepted/pallas_simple.py", ctx)
# As on a GPU, where compile_ahead runs: no GPU-lowering check (a CPU worker's, which switches
# pallas_call's mode process-wide while it lowers, so it cannot run in threads).
loaded.check_lowering = False
cases = [precompile.placeholder(problem, c, "first") for c in problem.tests[:3]]
cases.append(cases[0])  # the same sizes twice: compiled once
traced = []
trace = loaded._trace
loaded._trace = lambda *a: traced.append(1) or trace(*a)
ahead = loaded.compile_ahead(cases)
ahead_traces = len(traced)
c = problem.tests[1]
n = c.params["n"]
keys = torch.randint(0, 2**31, (n,), dtype=torch.int64).to(torch.uint32)
vals = torch.arange(n, dtype=torch.int32)
loaded.invoke([keys, vals, n])
loaded.synchronize()
ok = bool(torch.equal(keys.to(torch.int64), torch.sort(keys.to(torch.int64), stable=True).values))
print("REPORT " + json.dumps({"ahead": ahead, "ahead_traces": ahead_traces,
                               "after_call": len(traced), "sorted": ok}))
"""


def test_compile_ahead_compiles_each_size_once_and_the_call_reuses_it(tmp_path: Path) -> None:
    got = run_child(tmp_path, CHILD, **languages.require("pallas").runner_env("cpu"))
    assert got["ahead"] == 3 and got["ahead_traces"] == 3
    assert got["after_call"] == 3  # the test's call found its size compiled: no new trace
    assert got["sorted"] is True
