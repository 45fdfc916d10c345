"""The checkers (judge/checkers/): each passes the right answer and catches its bug."""

from __future__ import annotations

from typing import Any

import pytest
import torch

from judge import checkers
from judge.checkers.base import Outcome
from judge.problem import dtypes
from judge.problem.schema import Check


def _run(name: str, got: dict[str, Any], expected: dict[str, Any], **names: str) -> Outcome:
    spec = Check(checker=name, names=tuple(names.items()))
    return checkers.get(name).check(got, expected, {}, spec)


def _poisoned(shape: tuple[int, ...], dtype: torch.dtype) -> torch.Tensor:
    t = torch.empty(shape, dtype=dtype)
    dtypes.poison(t)
    return t


def test_registry_knows_every_checker_and_names_them_on_a_miss() -> None:
    assert set(checkers.CHECKERS) == {
        "close",
        "exact",
        "argmax",
        "sorted_stable",
        "compaction",
        "topk",
    }
    with pytest.raises(KeyError, match="expected one of"):
        checkers.get("closeish")


def test_close_passes_within_tolerance_and_fails_outside() -> None:
    e = torch.randn(100, dtype=torch.float64)
    spec = Check(rtol=1e-5, atol=0.0)
    close = checkers.get("close")
    assert close.check({"y": e.float()}, {"y": e}, {}, spec).passed
    bad = e.float().clone()
    bad[7] += 1.0
    out = close.check({"y": bad}, {"y": e}, {}, spec)
    assert not out.passed and "y: 1 of 100 values out of tolerance; worst at [7]" in out.message


def test_exact_catches_an_off_by_one_and_names_the_index() -> None:
    e = torch.arange(12, dtype=torch.int64).cumsum(0).reshape(3, 4)
    got = e.to(torch.int32).clone()
    assert _run("exact", {"y": got}, {"y": e}).passed
    got[2, 1] += 1
    out = _run("exact", {"y": got}, {"y": e})
    assert not out.passed
    assert out.message == "y: 1 of 12 values differ; first at [2, 1]: expected 45, got 46"


@pytest.mark.parametrize(("dtype", "poison"), [(torch.int32, 2139062143), (torch.uint8, 127)])
def test_exact_says_when_an_integer_output_was_never_written(
    dtype: torch.dtype, poison: int
) -> None:
    got = _poisoned((5,), dtype)
    got[:3] = 1
    out = _run("exact", {"bins": got}, {"bins": torch.ones(5, dtype=torch.int64)})
    assert not out.passed
    assert f"first at [3]: expected 1, got {poison}" in out.message
    assert "was it written?" in out.message


def test_exact_moves_of_floats_compare_by_value() -> None:
    e = torch.tensor([1.5, -0.0, float("nan")], dtype=torch.float64)
    assert _run("exact", {"y": torch.tensor([1.5, 0.0, float("nan")])}, {"y": e}).passed
    out = _run("exact", {"y": torch.tensor([1.5000001, 0.0, float("nan")])}, {"y": e})
    assert not out.passed and "first at [0]" in out.message


def test_argmax_holds_the_first_index_on_ties() -> None:
    x = torch.tensor([[1.0, 3.0, 3.0, 2.0], [5.0, 5.0, 5.0, 5.0]])
    first = torch.tensor([1, 0], dtype=torch.int64)  # the rule: the smallest index of the max
    assert _run("argmax", {"idx": first.to(torch.int32)}, {"idx": first}).passed
    last = torch.tensor([2, 3], dtype=torch.int32)  # a kernel that keeps the last equal value
    assert bool((x[torch.arange(2), last.long()] == x.max(dim=1).values).all())
    out = _run("argmax", {"idx": last}, {"idx": first})
    assert not out.passed
    assert (
        "idx: 2 of 2 values differ; first at [0]: expected 1 (the first index of the maximum), got 2"
        in out.message
    )


def _stable(keys: torch.Tensor, vals: torch.Tensor) -> dict[str, torch.Tensor]:
    order = torch.sort(keys.to(torch.int64), stable=True).indices
    return {"keys": keys[order], "vals": vals[order]}


def test_sorted_stable_accepts_the_stable_sort_of_unsigned_keys() -> None:
    keys = torch.tensor([4000000000, 3, 3, 0, 4000000000], dtype=torch.int64).to(torch.uint32)
    vals = torch.arange(5, dtype=torch.int32)
    want = _stable(keys, vals)
    out = _run("sorted_stable", dict(want), want, keys="keys", values="vals")
    assert out.passed, out.message
    assert want["keys"][-1] == 4000000000  # unsigned order, not the int32 reading of the bits


def test_sorted_stable_names_unsorted_keys() -> None:
    keys = torch.tensor([5, 1, 4, 1], dtype=torch.int32)
    want = _stable(keys, torch.arange(4, dtype=torch.int32))
    got = {"keys": torch.tensor([1, 4, 1, 5], dtype=torch.int32), "vals": want["vals"].clone()}
    out = _run("sorted_stable", got, want, keys="keys", values="vals")
    assert not out.passed
    assert "keys: not in ascending order at [2]: keys[1] = 4 > keys[2] = 1" in out.message


def test_sorted_stable_names_a_lost_key() -> None:
    keys = torch.tensor([2, 1, 3], dtype=torch.int32)
    want = _stable(keys, torch.arange(3, dtype=torch.int32))
    got = {"keys": torch.tensor([1, 1, 3], dtype=torch.int32), "vals": want["vals"].clone()}
    out = _run("sorted_stable", got, want, keys="keys", values="vals")
    assert not out.passed and "not the input's keys" in out.message and "[1]" in out.message


def test_sorted_stable_catches_an_unstable_sort() -> None:
    keys = torch.tensor([7, 2, 7, 2, 7], dtype=torch.int32)
    vals = torch.arange(5, dtype=torch.int32)
    want = _stable(keys, vals)  # keys 2 2 7 7 7, vals 1 3 0 2 4
    unstable = {"keys": want["keys"].clone(), "vals": torch.tensor([1, 3, 2, 0, 4])}
    out = _run("sorted_stable", unstable, want, keys="keys", values="vals")
    assert not out.passed
    assert "vals: 2 of 5 values differ; first at [2]: expected 0, got 2" in out.message
    assert "keys = 7 at [2..4]) must keep their input order: the sort is not stable" in out.message


def test_sorted_stable_catches_values_left_behind() -> None:
    keys = torch.tensor([3, 1, 2], dtype=torch.int32)
    vals = torch.tensor([30, 10, 20], dtype=torch.int32)
    want = _stable(keys, vals)
    got = {"keys": want["keys"].clone(), "vals": vals.clone()}  # keys sorted, values not moved
    out = _run("sorted_stable", got, want, keys="keys", values="vals")
    assert not out.passed and "each value must move with its key" in out.message


def _compacted(x: torch.Tensor) -> dict[str, torch.Tensor]:
    kept = x[x > 0].to(torch.float64)
    out = torch.full((x.numel(),), float("nan"), dtype=torch.float64)
    out[: kept.numel()] = kept
    return {"out": out, "count": torch.tensor([kept.numel()], dtype=torch.int64)}


def test_compaction_ignores_what_lies_beyond_the_count() -> None:
    x = torch.tensor([-1.0, 2.0, 0.0, 3.0, -4.0, 5.0])
    want = _compacted(x)
    out = _poisoned((6,), torch.float32)
    out[:3] = torch.tensor([2.0, 3.0, 5.0])
    got = {"out": out, "count": torch.tensor([3], dtype=torch.int32)}
    assert _run("compaction", got, want, values="out", count="count").passed
    out[3:] = 9.0  # scratch beyond the count is allowed
    assert _run("compaction", got, want, values="out", count="count").passed


def test_compaction_catches_a_wrong_count_and_a_wrong_order() -> None:
    x = torch.tensor([-1.0, 2.0, 0.0, 3.0, -4.0, 5.0])
    want = _compacted(x)
    got = {
        "out": torch.tensor([2.0, 3.0, 5.0, 0, 0, 0]),
        "count": torch.tensor([4], dtype=torch.int32),
    }
    out = _run("compaction", got, want, values="out", count="count")
    assert not out.passed and out.message == "count: expected 3 kept elements, got 4"
    got = {
        "out": torch.tensor([3.0, 2.0, 5.0, 0, 0, 0]),
        "count": torch.tensor([3], dtype=torch.int32),
    }
    out = _run("compaction", got, want, values="out", count="count")
    assert not out.passed
    assert "out: 2 of 3 values differ; first at [0]: expected 2, got 3" in out.message
    assert "in input order" in out.message
    unwritten = {"out": got["out"], "count": _poisoned((1,), torch.int32)}
    out = _run("compaction", unwritten, want, values="out", count="count")
    assert not out.passed and "got 2139062143" in out.message and "was it written?" in out.message


def test_compaction_of_nothing_kept() -> None:
    x = -torch.rand(5) - 0.1
    want = _compacted(x)
    got = {"out": _poisoned((5,), torch.float32), "count": torch.tensor([0], dtype=torch.int32)}
    assert _run("compaction", got, want, values="out", count="count").passed


def _topk(x: torch.Tensor, k: int) -> dict[str, torch.Tensor]:
    order = torch.sort(x, dim=1, descending=True, stable=True).indices[:, :k]
    return {"vals": x.gather(1, order), "idx": order.to(torch.int32)}


def test_topk_accepts_the_stable_cut_and_names_a_tie_broken_the_other_way() -> None:
    x = torch.tensor([[1.0, 7.0, 3.0, 7.0, 7.0], [-1.0, -2.0, -1.0, -5.0, 0.0]])
    want = _topk(x, 3)
    assert want["idx"].tolist() == [[1, 3, 4], [4, 0, 2]]
    assert _run("topk", dict(want), want, values="vals", indices="idx").passed
    swapped = want["idx"].clone()
    swapped[1, 1:] = torch.tensor([2, 0], dtype=torch.int32)  # -1.0 twice: the later one first
    out = _run("topk", {"vals": want["vals"], "idx": swapped}, want, values="vals", indices="idx")
    assert not out.passed
    assert (
        "idx: 2 of 6 values differ; first at [1, 1]: expected 0 (where that value is; of equal"
        in (out.message)
    )


def test_topk_names_a_row_out_of_order_and_a_value_that_is_not_among_the_largest() -> None:
    x = torch.tensor([[4.0, 9.0, 8.0, 1.0]])
    want = _topk(x, 2)
    ascending = {
        "vals": torch.tensor([[8.0, 9.0]]),
        "idx": torch.tensor([[2, 1]], dtype=torch.int32),
    }
    out = _run("topk", ascending, want, values="vals", indices="idx")
    assert not out.passed
    assert "vals: not in descending order at [0, 1]: 9 follows 8" in out.message
    short = {"vals": torch.tensor([[9.0, 4.0]]), "idx": torch.tensor([[1, 0]], dtype=torch.int32)}
    out = _run("topk", short, want, values="vals", indices="idx")
    assert "vals: 1 of 2 values differ; first at [0, 1]: expected 8 (the k largest" in out.message


def test_topk_says_when_an_output_was_never_written() -> None:
    want = _topk(torch.tensor([[2.0, 1.0, 3.0]]), 2)
    got = {"vals": want["vals"], "idx": _poisoned((1, 2), torch.int32)}
    out = _run("topk", got, want, values="vals", indices="idx")
    assert not out.passed
    assert "was it written?" in out.message
