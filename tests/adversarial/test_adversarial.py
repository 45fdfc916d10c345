"""Hostile submissions graded on the CPU (Triton interpreter; CUDA compiled only).

Every catalog entry with a CPU expectation is graded and its outcome asserted (catalog.py);
known holes of the judge are xfail (SECURITY.md lists them). The dedicated tests below prove,
through the verdict, that a submission cannot reach Redis or PostgreSQL on loopback, cannot
write outside its folder, cannot read the worker's environment and cannot leave a process
behind, and that the worker grades an honest submission correctly after crashing ones.

Each grading costs a few seconds (sandbox start + import torch), so the problems are cut
down to a few small cases (catalog.cut_problem).
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from tests.adversarial import catalog

HONEST = Path(__file__).resolve().parent / "honest" / "vector_add.py"

# Graded by the dedicated tests below (with extra assertions), not twice.
DEDICATED = {
    "escape/network.py",
    "escape/write_outside.py",
    "peeking/environ_proc.py",
    "resources/daemon.py",
    "faults/segfault.py",
    "faults/abort.py",
    "escape/kill_everything.py",
}


def _entry(path: str) -> catalog.Entry:
    return next(e for e in catalog.CATALOG if e.path == path)


def _entry_hole(path: str) -> str | None:
    e = _entry(path)
    return e.hole("cpu") if e.hole else None


def _sandbox_available() -> bool:
    try:
        from judge.sandbox import bubblewrap

        bubblewrap.bwrap_path()
        return True
    except Exception:
        return False


def _nvcc_available() -> bool:
    from judge.build import compilers

    return compilers.nvcc_path() is not None


needs_sandbox = pytest.mark.skipif(not _sandbox_available(), reason="bubblewrap is not installed")


@pytest.fixture(scope="module")
def ctx() -> catalog.Context:
    return catalog.context()  # puts KERNELDOJO_TEST_SECRET into this (the worker's) environment


def _params() -> list:
    out = []
    for e in catalog.entries_for("cpu"):
        if e.path in DEDICATED:
            continue
        marks = [pytest.mark.timeout(180)]
        hole = e.hole("cpu") if e.hole else None
        if hole:
            marks.append(pytest.mark.xfail(reason=f"known hole: {hole}", strict=False))
        if e.language == "cuda":
            marks.append(pytest.mark.skipif(not _nvcc_available(), reason="nvcc is not installed"))
        out.append(pytest.param(e, id=f"{e.path}:{e.problem}", marks=marks))
    return out


def _assert_row(row: dict) -> None:
    assert row["ok"], (
        f"{row['submission']}: expected {row['expected']}, got {row['got']}: "
        f"{row['note']} -- {row.get('message', '')}"
    )


@needs_sandbox
@pytest.mark.parametrize("entry", _params())
def test_catalog_entry_on_cpu(entry: catalog.Entry, ctx: catalog.Context) -> None:
    _assert_row(catalog.grade_entry(entry, "cpu", ctx))


def _grade_honest() -> str:
    from judge import grader
    from judge.problem import loader

    problem = catalog.cut_problem(loader.resolve("vector-add"), _entry("escape/network.py"), "cpu")
    res = grader.grade(problem, HONEST.read_text(), "triton", device="cpu", mode="submit")
    return str(res.verdict)


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0):
            return True
    except OSError:
        return False


@needs_sandbox
@pytest.mark.timeout(180)
def test_submission_cannot_reach_redis_or_postgres(ctx: catalog.Context) -> None:
    """escape/network.py writes garbage if any connection succeeds: accepted = unreachable."""
    reachable_from_host = [p for p in (6379, 5432) if _listening(p)]
    row = catalog.grade_entry(_entry("escape/network.py"), "cpu", ctx)
    _assert_row(row)
    if not reachable_from_host:
        pytest.skip("neither Redis nor PostgreSQL listens on this host: the probe proved less")


@needs_sandbox
@pytest.mark.timeout(180)
def test_submission_cannot_write_outside_its_folder(ctx: catalog.Context) -> None:
    """escape/write_outside.py scatters marker files; none may appear on the host."""
    row = catalog.grade_entry(_entry("escape/write_outside.py"), "cpu", ctx)
    _assert_row(row)
    assert not catalog._escape_markers()


@needs_sandbox
@pytest.mark.timeout(180)
def test_submission_cannot_read_the_workers_environment(ctx: catalog.Context) -> None:
    """The worker's environment holds a secret; the probe writes garbage if it sees it."""
    assert os.environ[catalog.SECRET_NAME] == ctx.secret
    row = catalog.grade_entry(_entry("peeking/environ_proc.py"), "cpu", ctx)
    _assert_row(row)


@needs_sandbox
@pytest.mark.timeout(180)
def test_submission_cannot_leave_a_process_behind(ctx: catalog.Context) -> None:
    """resources/daemon.py double-forks a renamed daemon that sleeps 600 s."""
    assert not catalog._leftovers(), "a leftover process from an earlier run exists"
    row = catalog.grade_entry(_entry("resources/daemon.py"), "cpu", ctx)
    _assert_row(row)
    assert not catalog._leftovers()


@needs_sandbox
@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    "crash", ["faults/segfault.py", "faults/abort.py", "escape/kill_everything.py"]
)
def test_worker_grades_correctly_after_a_crash(crash: str, ctx: catalog.Context) -> None:
    """A crashing submission is a runtime error; the next honest one, same process, is accepted."""
    row = catalog.grade_entry(_entry(crash), "cpu", ctx)
    _assert_row(row)
    assert _grade_honest() == "accepted"


def test_catalog_lists_every_submission_once() -> None:
    """Every file under submissions/ is in the catalog, once, with a header and a class."""
    files = sorted(
        str(p.relative_to(catalog.SUBMISSIONS))
        for p in catalog.SUBMISSIONS.rglob("*")
        if p.suffix in (".py", ".cu", ".mojo")
    )
    listed = [(e.path, e.problem) for e in catalog.CATALOG]
    assert sorted({path for path, _ in listed}) == files
    assert len(set(listed)) == len(listed)
    for e in catalog.CATALOG:
        assert e.threat in catalog.CLASSES, e.path
        head = (catalog.SUBMISSIONS / e.path).read_text().splitlines()[:15]
        assert any("expect:" in line for line in head), f"{e.path} has no 'expect:' header line"
        assert e.cpu is not None or e.gpu is not None, e.path
    covered = {e.threat for e in catalog.CATALOG}
    assert covered == set(catalog.CLASSES)


def test_the_static_policy_refuses_what_is_graded_past_it() -> None:
    """Entries graded with ``static_policy=False`` test the sandbox or the referee behind
    policy.py, whose check refuses each of their sources first; an entry graded with the policy
    on that it refuses must expect ``rejected`` wherever it is graded. Each Python language is
    checked as the referee checks it: with the problem's library rule where its track has one
    (not PyTorch's, whose track is the framework one)."""
    from judge import languages
    from judge.languages import helion_rules, mojo_rules, pallas_rules, policy
    from judge.problem import loader

    for e in catalog.CATALOG:
        if e.language == "cuda":
            continue
        rule = languages.require(e.language).library_rule(loader.resolve(e.problem))
        refused: object = (
            mojo_rules.check(e.source())  # Mojo has its own check, not Python's
            if e.language == "mojo"
            else policy.check_python(e.source(), forbid_library_compute=rule)
        )
        if refused is None and e.language == "pallas":  # Pallas' own rule, after the shared one
            refused = pallas_rules.check_source(e.source())
        if refused is None and e.language == "helion":  # Helion's own rule, likewise
            refused = helion_rules.check(e.source(), library_rule=rule)
        if not e.static_policy:
            assert refused is not None, f"{e.path}: the policy lets it through; grade it with it on"
        elif refused is not None:
            assert {e.cpu, e.gpu} <= {None, "rejected"}, f"{e.path}: {refused}"
