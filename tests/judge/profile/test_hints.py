"""The three hints on recorded profiles of the three classic mistakes (profile/hints.py)."""

from __future__ import annotations

import pytest

from judge.profile import hints, metrics, roofline
from judge.profile.report import Hint, KernelProfile
from tests.judge.profile.conftest import recorded


def derive(name: str) -> list[Hint]:
    return hints.derive(metrics.kernels(recorded(f"{name}.raw.csv")))


def test_uncoalesced_stores_come_first() -> None:
    got = derive("transpose_naive")
    assert got[0].title == "Uncoalesced global stores: 32.0 sectors per request, ideal 4"
    assert got[0].kernel == "transpose_naive"
    assert "88% of the memory traffic is wasted" in got[0].detail
    assert not any("bank" in h.title or "occupancy" in h.title.lower() for h in got)


def test_bank_conflicts_come_first() -> None:
    got = derive("transpose_conflicts")
    assert got[0].title.startswith("Shared-memory bank conflicts: 94% of shared accesses")
    assert "32.4 wavefronts per request, ideal 1" in got[0].title
    assert "[32][33]" not in got[0].detail and "33 elements" in got[0].detail
    assert not any(h.title.startswith("Uncoalesced") for h in got)


def test_low_occupancy_names_its_limiter() -> None:
    got = derive("low_occupancy")
    assert got[0].title == "Low occupancy: 3% of warp slots busy, at most 3% possible"
    assert got[0].detail.startswith("Limited by shared memory (163840 bytes per block)")
    # Idle units are explained by the occupancy: no second, vaguer hint for them.
    assert not any(h.title.startswith("The GPU is mostly idle") for h in got)


def test_at_most_three_and_most_severe_first() -> None:
    ks = [
        *metrics.kernels(recorded("transpose_naive.raw.csv")),
        *metrics.kernels(recorded("transpose_conflicts.raw.csv")),
        *metrics.kernels(recorded("low_occupancy.raw.csv")),
    ]
    got = hints.derive(ks)
    assert len(got) == hints.MAX_HINTS
    assert [h.severity for h in got] == sorted((h.severity for h in got), reverse=True)
    assert len({h.title.split(":")[0] for h in got}) == 3  # one per rule


def test_rereads_and_idle_tensor_cores() -> None:
    k = KernelProfile("matmul_kernel", duration_us=1000.0, dram_bytes=8e9, sm_pct=50.0)
    point = roofline.place(
        [k],
        flops=2 * 4096**3,
        problem_bytes=3 * 4 * 4096**2,
        peak_flops=50e12,
        peak_bytes_per_s=3e12,
    )
    assert point is not None and point.bound == "compute"
    got = hints.derive([k], point, problem_bytes=3 * 4 * 4096**2, tensor_problem=True)
    titles = [h.title for h in got]
    assert "Tensor cores unused" in titles
    assert any(t.startswith("DRAM traffic 39.7x what the problem needs") for t in titles)


def test_a_clean_profile_still_says_something() -> None:
    k = KernelProfile(
        "copy",
        duration_us=10.0,
        dram_pct=50.0,
        sm_pct=40.0,
        achieved_occupancy_pct=90.0,
        theoretical_occupancy_pct=100.0,
    )
    assert [h.title for h in hints.derive([k])] == ["Nothing stands out"]


def test_roofline_of_a_problem_without_flop() -> None:
    """A transpose only moves data: no compute ceiling is measured, the bandwidth is the roof."""
    ks = metrics.kernels(recorded("transpose_conflicts.raw.csv"))
    point = roofline.place(ks, 0.0, 2 * 4.0 * 8192 * 8192, 0.0, 3.0e12)
    assert point is not None and point.bound == "memory" and point.intensity == 0
    # 520 MB in 459 us: 1134 GB/s of the 3000 measured.
    assert point.achieved_gbps == pytest.approx(1134.06, abs=0.01)
    assert point.pct_of_roof == pytest.approx(37.8, abs=0.05)
    assert roofline.place(ks, 1e9, 1e9, 0.0, 3.0e12) is None  # FLOP without a ceiling
