"""The Profile page in the browser on recorded data (#22): a submission whose result is what a
GPU worker made of the H100's recorded profiles (tests/fixtures/ncu/): the hints, the per-kernel
table and charts, the roofline, the .ncu-rep download; a sanitizer's findings. The CPU server
offers no Profile button, since it cannot profile."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session, select

from app.core.db import make_engine
from app.models import Mode, Status, Submission, User
from judge.profile import hints, metrics, roofline, sanitizer
from judge.profile.report import ProfileReport, SanitizerReport
from tests.browser.test_learner import sign_up
from tests.conftest import LiveServer
from tests.judge.profile.conftest import NCU, recorded

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]
REPORT = "transpose-0123456789abcdef.ncu-rep"


def profile_result(flops: float = 0.0) -> dict[str, Any]:
    """The result a GPU worker records for a profile of the two transposes (no FLOP: a
    transpose only moves data; ``flops`` pretends otherwise, for the chart)."""
    ks = metrics.kernels(recorded("transpose_naive.raw.csv"))
    ks += metrics.kernels(recorded("transpose_conflicts.raw.csv"))
    moved = 2 * 8.0 * 8192 * 8192  # each transpose reads and writes 8192 x 8192 floats once
    point = roofline.place(ks, flops, moved, 51e12, 3.0e12)
    report = ProfileReport(
        enabled=True,
        case="8192 x 8192",
        kernels=ks,
        roofline=point,
        hints=hints.derive(ks, point, moved),
        report_file=REPORT,
        report_bytes=(NCU / "transpose_conflicts.ncu-rep").stat().st_size,
    )
    return {
        "verdict": "accepted",
        "problem": "transpose",
        "language": "cuda",
        "device": "NVIDIA H100 80GB HBM3",
        "message": "profiled on 8192 x 8192; its output was correct",
        "cases": [],
        "benchmark": [],
        "phases": {"profile": 11.2},
        "stdout": "",
        "warnings": [],
        "profile": report.to_dict(),
        "sanitizer": None,
        "score_ms": None,
    }


def sanitize_result() -> dict[str, Any]:
    text = recorded("sanitizer-memcheck-oob.txt").replace(
        " in oob.cu:", " in /sandbox/solution.cu:"
    )
    found, errors = sanitizer.parse(text, {"a": (0x7F752E800000, 4000)}, {"a": 4})
    san = SanitizerReport("memcheck", case="n = 1000", findings=found, errors=errors)
    return {
        "verdict": "wrong_answer",
        "problem": "vector-add",
        "language": "cuda",
        "device": "NVIDIA H100 80GB HBM3",
        "message": "1 of 1 cases failed; first: n = 1000: c: wrote past the end",
        "cases": [{"name": "n = 1000", "passed": False, "message": "c: wrote past the end"}],
        "benchmark": [],
        "sanitizer": san.to_dict(),
        "profile": None,
    }


def record(
    server: LiveServer, username: str, problem: str, mode: str, result: dict[str, Any]
) -> int:
    with Session(make_engine(server.database_url)) as s:
        uid = s.exec(select(User.id).where(User.username == username)).one()
        assert uid is not None
        sub = Submission(
            problem=problem,
            language="cuda",
            user_id=uid,
            gpu_kind="h100",
            source="// recorded on an H100\n",
            mode=mode,
            status=Status.DONE,
            verdict=result["verdict"],
            result_json=json.dumps(result),
        )
        s.add(sub)
        s.commit()
        s.refresh(sub)
        assert sub.id is not None
        return sub.id


def test_profile_page(page: Any, live_server: LiveServer, shots: Path, tmp_path: Path) -> None:
    name = sign_up(page, live_server)
    kept = live_server.data_dir / "profiles"
    kept.mkdir(exist_ok=True)
    shutil.copy(NCU / "transpose_conflicts.ncu-rep", kept / REPORT)
    sid = record(live_server, name, "transpose", Mode.PROFILE, profile_result())

    page.goto(f"{live_server.url}/submissions/{sid}")
    assert "Profile · not ranked" in page.locator("h1").inner_text()
    hint_titles = page.locator("#profile-hints li b").all_text_contents()
    # The naive transpose takes 72% of the time: its stores first, then the tile's conflicts.
    assert hint_titles[0] == "Uncoalesced global stores: 32.0 sectors per request, ideal 4"
    assert hint_titles[1].startswith("Shared-memory bank conflicts: 94%")
    assert len(hint_titles) == 3
    rows = page.locator("#profile-table tbody tr")
    assert rows.count() == 2
    first = rows.nth(0).inner_text()
    assert "transpose_naive" in first and "1202.94 µs" in first and "476 GB/s" in first
    assert "st 32.0" in first
    assert page.locator(".kernel-chart svg").count() == 2
    # 1.09 GB moved in 1.66 ms: 658 GB/s of the 3000 measured, 22% of the roof.
    line = page.locator("#profile-roofline").inner_text()
    assert "658 GB/s of the measured 3000 GB/s: memory-bound, 22% of the roof" in line
    assert page.locator("#profile-roofline-chart").count() == 0  # no FLOP, no log-log point
    page.screenshot(path=str(shots / "profile.png"), full_page=True)

    with page.expect_download() as dl:
        page.click("#profile-download")
    saved = tmp_path / "got.ncu-rep"
    dl.value.save_as(saved)
    assert saved.read_bytes() == (NCU / "transpose_conflicts.ncu-rep").read_bytes()
    assert dl.value.suggested_filename == f"submission-{sid}-transpose.ncu-rep"

    with_flops = record(live_server, name, "transpose", Mode.PROFILE, profile_result(1e9))
    page.goto(f"{live_server.url}/submissions/{with_flops}")
    assert page.locator("#profile-roofline-chart svg circle").count() == 1
    assert "TFLOP/s" in page.locator("#profile-roofline").inner_text()

    # Someone else sees neither the profile nor its report (they point into the code).
    page.context.clear_cookies()
    page.goto(f"{live_server.url}/submissions/{sid}")
    assert page.locator("#profile").count() == 0
    r = page.request.get(f"{live_server.url}/submissions/{sid}/profile.ncu-rep")
    assert r.status == 404


def test_sanitizer_findings(page: Any, live_server: LiveServer, shots: Path) -> None:
    name = sign_up(page, live_server)
    sid = record(live_server, name, "vector-add", Mode.SUBMIT, sanitize_result())
    page.goto(f"{live_server.url}/submissions/{sid}")
    head = page.locator("#sanitizer h2").text_content() or ""  # as written, not as styled
    assert head.startswith("compute-sanitizer memcheck") and "n = 1000" in head
    assert (
        page.locator("#sanitizer .findings li")
        .first.inner_text()
        .endswith(
            "invalid global read of size 4 at solution.cu:6, thread (232,0,0) block (3,0,0), "
            "at a[1000], past the end of a (1000 elements)"
        )
    )
    assert "25 errors in all" in page.locator("#sanitizer").inner_text()
    page.screenshot(path=str(shots / "sanitizer.png"), full_page=True)


def test_no_profile_button_without_a_gpu(page: Any, live_server: LiveServer) -> None:
    sign_up(page, live_server)
    page.goto(f"{live_server.url}/problems/vector-add")
    page.wait_for_selector("#run-btn")
    assert page.locator("#profile-btn").count() == 0
    assert re.search(r"Run", page.locator("#run-btn").inner_text())
