"""problem.toml's ``gpus`` (docs/multi-gpu.md): one by default, any count of ranks from 1 up,
and a wrong value named with its file and field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from judge.problem import loader
from judge.problem.schema import MAX_GPUS, ProblemError


def _with_gpus(tmp_path: Path, line: str) -> Path:
    dst = tmp_path / "vector-add"
    shutil.copytree(loader.REPO_PROBLEMS / "vector-add", dst)
    toml = dst / "problem.toml"
    toml.write_text(line + "\n" + toml.read_text())
    return dst


def test_a_problem_spans_one_gpu_unless_it_says_more(tmp_path: Path) -> None:
    assert loader.load_problem(loader.REPO_PROBLEMS / "vector-add").gpus == 1
    assert loader.load_problem(_with_gpus(tmp_path, "gpus = 4")).gpus == 4


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("gpus = 0", "expected an integer from 1 to"),
        (f"gpus = {MAX_GPUS + 1}", "expected an integer from 1 to"),
        ('gpus = "2"', "expected an integer, the number of GPUs (ranks) it spans"),
        ("gpus = 2.0", "expected an integer, the number of GPUs (ranks) it spans"),
    ],
)
def test_a_wrong_count_names_the_file_and_field(tmp_path: Path, line: str, said: str) -> None:
    folder = _with_gpus(tmp_path, line)
    with pytest.raises(ProblemError) as e:
        loader.load_problem(folder)
    assert e.value.field == "gpus"
    assert e.value.file == str(folder / "problem.toml")
    assert said in str(e.value)
