"""``problems new``: a skeleton that loads as a problem, checks, and whose reference runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import torch

from judge import languages
from judge.problem import loader

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "judge.cli", "problems", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )


def test_new_writes_a_folder_that_loads_checks_and_runs(tmp_path: Path) -> None:
    r = _cli("new", "demo-scale", "--root", str(tmp_path))
    assert r.returncode == 0, r.stderr
    folder = tmp_path / "demo-scale"
    assert "Still to do" in r.stdout and "solutions/rejected/" in r.stdout
    p = loader.load_problem(folder)
    assert p.slug == "demo-scale" and p.title.startswith("TODO")
    assert [a.name for a in p.args] == ["x", "y", "n"] and p.samples == ()
    # the starters are the languages' own, written from the signature
    for name in ("solution.py", "solution.cu"):
        lang = languages.infer(name)
        assert lang is not None
        assert (folder / "starter" / name).read_text() == lang.generate_starter(p)
    assert 'extern "C" void solve(const float* x, float* y, int n);' in p.statement
    # the reference runs: inputs of the declared shapes, the expected output
    ref = loader.load_reference(p)
    gen = torch.Generator().manual_seed(1)
    inputs = loader.call_generate(ref, p, {"n": 5}, "random", gen, torch.device("cpu"))
    assert torch.equal(ref.reference(inputs, {"n": 5})["y"], 2 * inputs["x"].double())
    # problems check passes on the folder as it is (it has no samples to grade yet)
    env = {**os.environ, "KERNELDOJO_PROBLEMS": str(tmp_path)}
    check = _cli("check", "--device", "cpu", env=env)
    assert check.returncode == 0, check.stderr


def test_new_refuses_an_existing_folder_and_a_bad_slug(tmp_path: Path) -> None:
    assert _cli("new", "demo", "--root", str(tmp_path)).returncode == 0
    again = _cli("new", "demo", "--root", str(tmp_path))
    assert again.returncode == 2 and "already exists" in again.stderr
    bad = _cli("new", "Bad_Slug", "--root", str(tmp_path))
    assert bad.returncode == 2 and "lowercase words" in bad.stderr


def test_starters_follow_a_changed_signature(tmp_path: Path) -> None:
    assert _cli("new", "demo", "--root", str(tmp_path)).returncode == 0
    toml = tmp_path / "demo" / "problem.toml"
    toml.write_text(toml.read_text().replace('name = "x"', 'name = "src"'))
    r = _cli("new", "demo", "--root", str(tmp_path), "--starters")
    assert r.returncode == 0, r.stderr
    assert "const float* src" in (tmp_path / "demo" / "starter" / "solution.cu").read_text()
