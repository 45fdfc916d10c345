"""The referee keeps only well-formed findings from the runner, which the submission controls
(profile/findings.py)."""

from __future__ import annotations

from judge.profile.findings import Findings


def test_untrusted_findings_are_checked_and_capped() -> None:
    f = Findings()
    f.add("not a list", "t1")
    f.add([{"kind": "out-of-bounds store"}, 7, {"message": ["no"]}], "t1")  # no message: dropped
    assert f.items == [] and f.case == ""
    good = {"kind": "out-of-bounds store", "message": "x" * 5000, "file": "solution.py", "line": 9}
    f.add([good, {**good, "line": -3, "message": "m"}], "n = 3")
    assert f.case == "n = 3"
    assert len(f.items[0].message) == 400 and f.items[0].line == 9
    assert f.items[1].line is None  # a line number out of range is not kept
    f.add([good], "n = 5")  # the same place in a later case: once is enough
    assert len(f.items) == 2
    f.add([{**good, "line": n} for n in range(10, 30)], "n = 7")
    assert len(f.items) == Findings.LIMIT
    report = f.report()
    assert report.tool == "interpreter" and report.errors == Findings.LIMIT
