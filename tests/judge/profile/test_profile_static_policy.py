"""Profile mode passes ``static_policy`` on (grader.py → profiler.run → the tool run's session):
the adversarial catalogue grades escape/profile_report_link.py past the static policy to test
the defence behind it, and on the H200 the policy refused it first because the flag was dropped."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from judge import grader
from judge.problem import loader
from judge.profile import profiler
from judge.results import GradeResult
from judge.verdicts import Verdict


@pytest.mark.parametrize("static_policy", [True, False])
def test_profile_mode_hands_the_static_policy_flag_on(
    monkeypatch: pytest.MonkeyPatch, static_policy: bool
) -> None:
    seen: dict[str, Any] = {}

    def fake_run(problem: Any, source: str, language: str, *args: Any, **kw: Any) -> GradeResult:
        seen.update(kw)
        return GradeResult(Verdict.ACCEPTED, problem.slug, language, "cuda")

    monkeypatch.setattr(grader, "resolve_device", lambda requested: "cuda")
    monkeypatch.setattr(profiler, "run", fake_run)
    problem = loader.load_problem(Path("problems/vector-add"))
    res = grader.grade(
        problem,
        "def solve(a, b, c, n):\n    pass\n",
        "triton",
        mode="profile",
        static_policy=static_policy,
    )
    assert res.verdict == Verdict.ACCEPTED
    assert seen["static_policy"] is static_policy
