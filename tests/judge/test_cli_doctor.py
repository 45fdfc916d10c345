"""``python -m judge.cli doctor`` (``kerneldojo doctor``) on the CPU: the environment, then each
language's status; exit 1 when a language is unavailable, 2 when it cannot run at all."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.broken_env import ERROR, broken_package

ROOT = Path(__file__).resolve().parents[2]


def doctor(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "judge.cli", "doctor", "--device", "cpu", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "COLUMNS": "200", **(env or {})},
        timeout=300,
    )


def test_doctor_prints_the_environment_and_each_languages_status() -> None:
    proc = doctor("--language", "cuda", "--language", "numba")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "Python 3." in out and "CPUs" in out
    assert "GPU none: languages are graded on the CPU" in out
    assert "packages torch " in out and "numba " in out and "jaxlib " in out
    assert "nvcc " in out and "bubblewrap" in out
    rows = {line.split("│")[1].strip(): line for line in out.splitlines() if line.count("│") > 5}
    assert set(rows) >= {"CUDA", "Numba"}
    assert "ok" in rows["CUDA"] and "not_run" in rows["CUDA"] and "cuda_simple.cu" in rows["CUDA"]
    assert "ok" in rows["Numba"] and "accepted" in rows["Numba"]
    assert "samples from vector-add/solutions/accepted/" in out
    assert "CUDA: ok" in proc.stderr and "Numba: ok" in proc.stderr  # progress as it goes


def test_doctor_json_names_a_broken_library_package_relative(tmp_path: Path) -> None:
    site = broken_package(tmp_path)
    proc = doctor("--language", "numba", "--json", env={"PYTHONPATH": str(site)})
    assert proc.returncode == 1, proc.stderr  # a language is unavailable
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1
    report = json.loads(lines[0])
    assert report["device"] == "cpu" and report["ok"] is False
    assert report["environment"]["gpu"] is None and report["environment"]["cpu_count"]
    [numba] = report["languages"]
    assert (numba["name"], numba["status"], numba["verdict"]) == ("numba", "unavailable", None)
    assert ERROR in numba["error"] and "numba/_core.py, line 5" in numba["error"]
    assert str(tmp_path) not in proc.stdout and "site-packages" not in proc.stdout


def test_doctor_stream_is_json_lines_for_a_worker(tmp_path: Path) -> None:
    site = broken_package(tmp_path)
    proc = doctor("--language", "numba", "--stream", env={"PYTHONPATH": str(site)})
    msgs = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [next(iter(m)) for m in msgs] == ["environment", "language", "done"]
    assert msgs[1]["language"]["status"] == "unavailable"
    assert msgs[2]["done"]["ok"] is False


def test_doctor_refuses_what_it_cannot_do() -> None:
    proc = doctor("--language", "cobol")
    assert proc.returncode == 2 and "unknown language 'cobol'" in proc.stderr
    assert "Traceback" not in proc.stderr
    proc = subprocess.run(
        [sys.executable, "-m", "judge.cli", "doctor", "--device", "tpu"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 2 and "device must be auto|cuda|cpu" in proc.stderr
