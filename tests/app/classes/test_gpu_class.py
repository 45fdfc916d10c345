"""scripts/gpu_class.py (``gpu_check.py --phase class``) on the CPU queue: the same flow as on a
GPU host (accounts, class, assignments, editorial request, submissions, ``worker.tasks.run``,
gradebook, CSV), graded for correctness by the interpreter; the CPU does not time, so the speed
cells are untimed at full points and no editorial run is made."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine

from tests.conftest import ROOT

pytestmark = pytest.mark.timeout(300)


def test_class_phase_flow_on_the_cpu(
    db_url: str, engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    monkeypatch.setenv("KERNELDOJO_PROBLEMS", str(ROOT / "problems"))
    import gpu_class

    flow = gpu_class.run_flow(db_url, "cpu", tmp_path, ["vector-add"], say=lambda _: None)
    assert flow.editorial_ids == []
    assert [v for v, _, _ in flow.graded.values()] == ["accepted", "accepted"]
    assert gpu_class.check(flow) == []
    seen = [
        (r["assignment"], r["student"][:-6], r["verdict"], r["late"], r["untimed"], r["score"])
        for r in flow.rows
    ]
    assert seen == [
        ("Late", "fast", "accepted", True, False, 5.0),
        ("Speed", "fast", "accepted", False, True, 10.0),
        ("Late", "simple", "accepted", True, False, 5.0),
        ("Speed", "simple", "accepted", False, True, 10.0),
    ]
    lines = flow.csv.splitlines()
    assert lines[0] == (
        "student,Late / vector-add verdict,Late / vector-add best_ms,Late / vector-add score,"
        "Late / vector-add late,Speed / vector-add verdict,Speed / vector-add best_ms,"
        "Speed / vector-add score,Speed / vector-add late,total,out_of"
    )
    assert [line.split(",", 1)[1] for line in lines[1:]] == [
        "accepted,,5,yes,accepted,,10,no,15,20"
    ] * 2


def test_the_phase_does_nothing_without_a_gpu(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    monkeypatch.setenv("KERNELDOJO_GPU_KIND", "cpu")
    import gpu_class

    assert gpu_class.phase_class(tmp_path) == ([], 0)
    assert "no CUDA GPU" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []


def _timed_flow(simple_ms: float, simple_score: float) -> Any:
    """A flow as a GPU host records it: the editorial at 1.0 ms, ``fast`` at 1.0 ms."""
    import gpu_class

    rows = []
    for student, sample, ms, score in (
        ("fast", "triton_fast.py", 1.0, 10.0),
        ("simple", "triton_simple.py", simple_ms, simple_score),
    ):
        late = {"assignment": "Late", "rule": "correctness", "late": True, "score": 5.0}
        speed = {"assignment": "Speed", "rule": "speed", "late": False, "score": score}
        for r in (late, speed):
            r |= {"problem": "vector-add", "student": student, "sample": sample}
            r |= {"verdict": "accepted", "untimed": False, "points": 10.0}
            r |= {"score_ms": ms, "ref_ms": 1.0, "ratio": ms}
            rows.append(r)
    head = "student,Late / vector-add verdict,Late / vector-add best_ms,Late / vector-add score,"
    head += "Late / vector-add late,Speed / vector-add verdict,Speed / vector-add best_ms,"
    head += "Speed / vector-add score,Speed / vector-add late,total,out_of\n"
    csv = head + "".join(
        f"{s},accepted,,5,yes,accepted,,{x:g},no,,20\n"
        for s, x in (("fast", 10.0), ("simple", simple_score))
    )
    flow = gpu_class.Flow("h100", 1, [7, 8], {1: ("accepted", 1.0, 9.0)}, rows, csv)
    flow.problems = ["vector-add"]
    return flow


def test_the_timed_checks_follow_speed_factor(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    import gpu_class

    assert gpu_class.check(_timed_flow(2.05, 7.5)) == []  # speed_factor(2.05) = 0.75
    bad = gpu_class.check(_timed_flow(2.05, 10.0))
    assert len(bad) == 1 and "speed_factor gives 7.5" in bad[0]
    bad = gpu_class.check(_timed_flow(0.5, 5.0))  # faster than fast, and scored less
    assert any("speed_factor gives 10.0" in b for b in bad)
    assert any("is faster but scores less" in b for b in bad)
