"""The referee's side of a profile, without a GPU (profile/profiler.py): what it does with the
runner's log and the report left in the work folder, and when profiling is not enabled.
ncu's reading of the report is replaced by the page it printed for that report on the H100."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from judge import grader
from judge.problem import loader
from judge.problem.schema import Problem
from judge.profile import profiler, tools
from judge.profile.report import ProfileReport
from judge.timing import measure
from judge.verdicts import Verdict
from tests.conftest import FIXTURE_PROBLEMS
from tests.judge.profile.conftest import NCU, recorded

# ncu's own words when the driver keeps the counters for administrators.
DENIED = (
    "==PROF== Connected to process 41 (/usr/bin/python3.12)\n"
    "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU "
    "Performance Counters on the target device 0. For instructions on enabling permissions and "
    "to get more information see https://developer.nvidia.com/ERR_NVGPUCTRPERM\n"
)


@pytest.fixture
def toy() -> Problem:
    return loader.resolve(str(FIXTURE_PROBLEMS / "toy-add"))


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    (tmp_path / "work" / tools.REPORT_DIR).mkdir(parents=True)
    return tmp_path / "work"


def collect(toy: Problem, workdir: Path, kept: Path, output: str = "") -> ProfileReport:
    report = ProfileReport(enabled=True, case="n = 2^20")
    profiler._collect(report, workdir, output, toy, {"n": 1 << 20}, "ncu", kept)
    return report


def test_counters_closed_to_the_sandbox(toy: Problem, workdir: Path, tmp_path: Path) -> None:
    r = collect(toy, workdir, tmp_path / "kept", DENIED)
    assert not r.enabled
    assert r.message.startswith("profiling is not enabled on this worker: ")
    assert "NVreg_RestrictProfilingToAdminUsers=0" in r.message
    assert not (tmp_path / "kept").exists()


def test_report_kept_and_read(
    toy: Problem, workdir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copy(NCU / "transpose_conflicts.ncu-rep", workdir / tools.REPORT_DIR / "report.ncu-rep")
    seen: list[Path] = []

    def page(ncu: str, report: Path, name: str) -> str:
        seen.append(report)
        return recorded("transpose_conflicts.raw.csv")

    monkeypatch.setattr(profiler, "import_csv", page)
    monkeypatch.setattr(measure, "ceiling", lambda unit: 3.0e12 if unit == "copy" else 50e12)
    r = collect(toy, workdir, tmp_path / "kept")
    assert r.enabled and r.report_file is not None
    kept = tmp_path / "kept" / r.report_file
    assert kept.read_bytes() == (NCU / "transpose_conflicts.ncu-rep").read_bytes()
    assert seen == [kept]  # ncu reads the referee's copy, never the sandbox's file
    assert r.report_bytes == kept.stat().st_size
    assert r.kernels[0].name.startswith("transpose_tile")
    assert r.hints[0].title.startswith("Shared-memory bank conflicts")
    assert r.roofline is not None and r.roofline.bound == "memory"
    assert r.roofline.peak_gbps == 3000.0


def test_a_link_at_the_report_path_is_not_followed(
    toy: Problem, workdir: Path, tmp_path: Path
) -> None:
    """The submission runs as the user that ncu writes the report as: it may leave a link to a
    host file where the report goes. The referee neither reads nor serves it."""
    (workdir / tools.REPORT_DIR / "report.ncu-rep").symlink_to("/etc/passwd")
    r = collect(toy, workdir, tmp_path / "kept")
    assert r.report_file is None and not r.kernels
    assert r.message.startswith("the profile's report was not kept")
    assert not (tmp_path / "kept").exists()


def test_no_report(toy: Problem, workdir: Path, tmp_path: Path) -> None:
    r = collect(
        toy, workdir, tmp_path / "kept", "==ERROR== The application returned an error code (1).\n"
    )
    assert r.message == "ncu wrote no report: ==ERROR== The application returned an error code (1)."


def test_no_ncu_on_this_worker(
    toy: Problem, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(tools, "ncu_path", lambda: None)
    res = profiler.run(toy, "", "triton", lambda e: None, tmp_path)
    assert res.verdict == Verdict.NOT_RUN
    assert res.message == "profiling is not enabled on this worker: " + tools.MISSING_HELP
    assert res.profile is not None and not res.profile.enabled


def test_profile_on_the_cpu(toy: Problem) -> None:
    res = grader.grade(
        toy, "def solve(a, b, c, n):\n    pass\n", "triton", device="cpu", mode="profile"
    )
    assert res.verdict == Verdict.NOT_RUN
    assert res.profile is not None
    assert res.profile.message.startswith("profiling is not enabled on this worker: ")
    assert res.to_dict()["profile"]["enabled"] is False


def test_ncu_command_profiles_only_solve() -> None:
    argv = tools.ncu_command("/usr/local/cuda/bin/ncu", "/sandbox/profile/report")
    assert argv[argv.index("--nvtx-include") + 1] == "kd_solve/"
    assert "--nvtx" in argv and argv[argv.index("--set") + 1] == "full"
    assert argv[-2:] == ["-o", "/sandbox/profile/report"]
    assert tools.import_command("ncu", "r.ncu-rep", "raw") == [
        "ncu",
        "--import",
        "r.ncu-rep",
        "--csv",
        "--page",
        "raw",
        "--print-units",
        "base",
    ]
