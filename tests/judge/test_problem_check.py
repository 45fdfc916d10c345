"""``problems check --jobs``: how the folders are split, and a shard that dies is a failure."""

from __future__ import annotations

import sys

import pytest

from judge import problem_check
from judge.problem import loader


def test_shards_cover_every_problem_once_and_balance_the_cost() -> None:
    chosen = loader.load_all().problems
    groups = problem_check.shards(chosen, 2)
    assert len(groups) == 2
    slugs = [p.slug for g in groups for p in g]
    assert sorted(slugs) == sorted(p.slug for p in chosen)
    loads = [sum(problem_check.cost(p) for p in g) for g in groups]
    # greedy, largest first: the two loads differ by at most the largest single folder
    assert abs(loads[0] - loads[1]) <= max(problem_check.cost(p) for p in chosen)


def test_more_jobs_than_problems_gives_one_shard_each() -> None:
    chosen = loader.load_all().problems[:2]
    assert [len(g) for g in problem_check.shards(chosen, 8)] == [1, 1]


def test_a_shard_that_dies_is_reported_not_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = loader.load_all().problems[:2]
    monkeypatch.setattr(
        problem_check,
        "SHARD_COMMAND",
        [sys.executable, "-c", "import sys; sys.stderr.write('boom'); sys.exit(3)"],
    )
    rows = list(problem_check.rows_in_parallel(chosen, "cpu", "run", 2))
    assert len(rows) == 2 and all("invalid" in r for r in rows)
    assert all("exited 3 after 0 of" in r["invalid"] and "boom" in r["invalid"] for r in rows)
