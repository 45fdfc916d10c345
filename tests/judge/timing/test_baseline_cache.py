"""The torch baseline's cached time (timing/baseline.py) is keyed by the problem folder's code: a
changed reference.py is timed again (kmeans-assign's baseline was rewritten in chunks, and a worker
kept reporting the old 4 GiB version's time)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import torch

from judge.problem import loader
from judge.timing import baseline, measure


def test_a_changed_baseline_is_timed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "vector-add"
    shutil.copytree(Path("problems/vector-add"), folder)
    timed: list[str] = []
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda *a: "NVIDIA H200")
    monkeypatch.setattr(measure, "cache_file", lambda: tmp_path / "cache.json")
    monkeypatch.setattr(
        baseline, "time_baseline", lambda p, c: timed.append(c.name) or 1.0 + len(timed)
    )
    problem = loader.load_problem(folder)
    case = problem.benchmarks[0]
    assert baseline.cached(problem, case) == 2.0
    assert baseline.cached(problem, case) == 2.0  # from the cache
    assert len(timed) == 1
    with (folder / "reference.py").open("a") as f:
        f.write("\n# the baseline, rewritten\n")
    assert baseline.cached(loader.load_problem(folder), case) == 3.0
    assert len(timed) == 2
