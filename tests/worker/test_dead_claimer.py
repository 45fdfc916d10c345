"""A grading process takes over a claim only when it can see that the claimer is dead: a claim of
its own worker, machine and pid namespace whose pid is gone. Claims from a host that shares the
worker's name (issue #39: two hosts named alike) are left to the sweeper, on SQLite and
PostgreSQL."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel

from app import submissions
from app.core.db import make_engine
from app.models import Submission
from tests import factories
from worker import tasks

ME = "celery@grader"


@pytest.fixture
def eng(db_url: str) -> Iterator[Engine]:
    e = make_engine(db_url)
    yield e
    with e.begin() as c:
        for t in reversed(SQLModel.metadata.sorted_tables):
            c.execute(t.delete())
    e.dispose()


def _dead_pid() -> int:
    """The pid of a process that has exited and been reaped."""
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def _claimed_by(eng: Engine, holder: str) -> int:
    sid = factories.submission(eng, "learner")
    assert submissions.claim(eng, sid, holder, stale_s=3600) == 1
    return sid


def test_the_claim_names_the_process_and_where_it_runs() -> None:
    name = tasks.claimant(ME)
    host, _, proc = name.rpartition("/")
    pid, _, where = proc.partition(".")
    assert host == ME and pid.isdigit() and where == tasks.here() and len(where) == 10


def test_a_dead_process_of_this_machine_is_taken_over(eng: Engine) -> None:
    holder = f"{ME}/{_dead_pid()}.{tasks.here()}"
    sid = _claimed_by(eng, holder)
    me = tasks.claimant(ME)
    assert tasks._dead_claimer(eng, sid, me) == holder
    assert submissions.claim(eng, sid, me, stale_s=3600, takeover=holder) == 2


def test_a_live_process_is_not_taken_over(eng: Engine) -> None:
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"]) as live:
        try:
            sid = _claimed_by(eng, f"{ME}/{live.pid}.{tasks.here()}")
            assert tasks._dead_claimer(eng, sid, tasks.claimant(ME)) is None
        finally:
            live.kill()


def test_a_host_of_the_same_name_elsewhere_is_never_judged_by_a_pid_here(eng: Engine) -> None:
    # The pid is free on this machine, but it belongs to another machine (another boot id or pid
    # namespace): that process may well be alive, grading. Only the sweeper may take it over.
    other = "0123456789" if tasks.here() != "0123456789" else "9876543210"
    sid = _claimed_by(eng, f"{ME}/{_dead_pid()}.{other}")
    assert tasks._dead_claimer(eng, sid, tasks.claimant(ME)) is None
    with Session(eng) as s:
        sub = s.get(Submission, sid)
        assert sub is not None and sub.status == "running"


def test_a_claim_in_the_form_without_a_machine_is_left_to_the_sweeper(eng: Engine) -> None:
    sid = _claimed_by(eng, f"{ME}/{_dead_pid()}")  # made by a worker before the tag existed
    assert tasks._dead_claimer(eng, sid, tasks.claimant(ME)) is None


def test_another_workers_dead_process_is_not_taken_over(eng: Engine) -> None:
    sid = _claimed_by(eng, f"celery@other/{_dead_pid()}.{tasks.here()}")
    assert tasks._dead_claimer(eng, sid, tasks.claimant(ME)) is None
