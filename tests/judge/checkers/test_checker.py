"""Output comparison: tolerances, NaN/Inf, norm-wise error, and messages that locate the error."""

from __future__ import annotations

import torch

from judge.checkers.outputs import compare
from judge.problem import dtypes
from judge.problem.schema import Check


def test_exact_and_within_tolerance_pass() -> None:
    e = torch.randn(1000, dtype=torch.float64)
    ok, msg, err = compare("c", e.float(), e, e.abs(), Check(rtol=1e-6, atol=0.0))
    assert ok and msg == "" and err < 1e-6


def test_unwritten_output_is_reported_with_its_index() -> None:
    e = torch.ones(4, 5, dtype=torch.float64)
    got = e.float().clone()
    poison = torch.empty(1)
    dtypes.poison(poison)  # the NaN the referee fills outputs with
    got[2, 3] = poison[0]
    ok, msg, _ = compare("y", got, e, e.abs(), Check(rtol=1e-4, atol=0.0))
    assert not ok
    assert "[2, 3]" in msg and "was it written" in msg


def test_bf16_precision_fails_fp32_tolerance() -> None:
    e = torch.randn(10000, dtype=torch.float64) * 3 + 1
    got = e.to(torch.bfloat16).float()
    ok, msg, _ = compare("c", got, e, e.abs(), Check(rtol=1e-5, atol=1e-30))
    assert not ok and "out of tolerance" in msg and "expected" in msg


def test_zero_output_fails_even_when_expected_values_are_tiny() -> None:
    e = torch.full((65536,), 1.5e-5, dtype=torch.float64)
    ok, _, _ = compare("y", torch.zeros(65536), e, e.abs(), Check(rtol=1e-4, atol=1e-12))
    assert not ok


def test_relative_l2_catches_a_globally_imprecise_result() -> None:
    e = torch.randn(4096, dtype=torch.float64)
    got = (e * (1 + 1e-3)).float()
    scale = torch.full_like(e, 100.0)  # a loose per-element scale passes it...
    assert compare("c", got, e, scale, Check(rtol=1e-3, atol=0.0))[0]
    ok, msg, _ = compare(
        "c", got, e, scale, Check(rtol=1e-3, atol=0.0, max_rel_l2=1e-4)
    )  # ...the norm does not
    assert not ok and "relative L2" in msg


def test_infinite_expected_values_must_match() -> None:
    e = torch.tensor([float("inf"), 1.0], dtype=torch.float64)
    assert compare("c", torch.tensor([float("inf"), 1.0]), e, e.abs(), Check(rtol=1e-6, atol=0.0))[
        0
    ]
    assert not compare("c", torch.tensor([5.0, 1.0]), e, e.abs(), Check(rtol=1e-6, atol=0.0))[0]


def test_a_passing_case_reports_how_near_its_tolerance_it_came() -> None:
    """The submission page shows "0.5 × tolerance" rather than a raw error (#23)."""
    from types import SimpleNamespace

    from judge.checkers.outputs import tolerance_ratio

    check = Check(rtol=1e-3, atol=0.0)
    problem = SimpleNamespace(check=check)
    expected = torch.tensor([1.0, 2.0, 4.0], dtype=torch.float64)
    got = expected * (1 + torch.tensor([0.0, 5e-4, -2.5e-4]))  # half, then a quarter, of rtol
    ratio = tolerance_ratio(problem, {"c": got.float()}, {"c": expected}, {})  # type: ignore[arg-type]
    assert ratio is not None and abs(ratio - 0.5) < 1e-3
    exact = SimpleNamespace(check=Check(rtol=0.0, atol=0.0, checker="exact"))
    assert tolerance_ratio(exact, {"c": got}, {"c": expected}, {}) is None  # type: ignore[arg-type]
