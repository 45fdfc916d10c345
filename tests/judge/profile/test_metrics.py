"""ncu's raw CSV page, recorded on an H100, read into per-kernel figures (profile/metrics.py)."""

from __future__ import annotations

import csv

import pytest

from judge.profile import metrics
from judge.profile.report import KernelProfile
from tests.judge.profile.conftest import recorded


def one(name: str) -> KernelProfile:
    ks = metrics.kernels(recorded(f"{name}.raw.csv"))
    assert len(ks) == 1
    return ks[0]


def test_naive_transpose() -> None:
    k = one("transpose_naive")
    assert k.name == "transpose_naive(const float *, float *, int, int)"
    assert (k.grid, k.block) == ("(256, 1024, 1)", "(32, 8, 1)")
    assert k.duration_us == pytest.approx(1202.944)
    assert k.dram_bytes == 294_739_200 + 277_808_640
    assert k.dram_gbps == pytest.approx(475.956, rel=1e-5)
    assert (k.dram_pct, k.sm_pct, k.memory_pct) == (14.2, 6.66, 83.08)
    assert (k.achieved_occupancy_pct, k.theoretical_occupancy_pct) == (79.32, 100.0)
    assert k.occupancy_limiter is None  # every warp slot can be filled
    assert (k.l1_hit_pct, k.l2_hit_pct) == (64.26, 89.02)
    # Reads along rows: 4 sectors per request, as ideal; writes strided by a row: 32.
    assert k.load_sectors_per_request == 4.0 and k.load_ideal_sectors == 4.0
    assert k.store_sectors_per_request == pytest.approx(32.0035, abs=1e-4)
    assert k.store_ideal_sectors == pytest.approx(4.0, abs=1e-3)
    assert k.excessive_sectors_pct == pytest.approx(100 * 58_720_256 / 75_497_472)
    assert [s.reason for s in k.stalls[:3]] == ["drain", "long_scoreboard", "short_scoreboard"]
    assert "selected" not in {s.reason for s in k.stalls}  # an issuing warp is not stalled
    assert k.tensor_pct is None


def test_shared_tile_without_padding() -> None:
    k = one("transpose_conflicts")
    assert k.bank_conflicts == 65_788_136 + 49_944
    assert k.shared_wavefronts == 67_885_288 + 2_147_096
    # A column of a [32][32] float tile: 32 wavefronts per load request, one per bank.
    assert k.shared_wavefronts_per_request == pytest.approx(32.37, abs=0.01)
    assert k.shared_mem_per_block == 4096
    assert k.store_sectors_per_request == 4.0  # the tile made the global accesses coalesced


def test_occupancy_limited_by_shared_memory() -> None:
    k = one("low_occupancy")
    assert (k.achieved_occupancy_pct, k.theoretical_occupancy_pct) == (3.12, 3.12)
    assert k.occupancy_limiter == "shared memory"
    assert (k.shared_mem_per_block, k.block_size, k.registers_per_thread) == (163840, 64, 16)


def test_units_are_read_from_the_units_row() -> None:
    """A page printed without --print-units base says µs and Gbyte/s: the same figures."""
    h, u, v = csv.reader(recorded("transpose_naive.raw.csv").splitlines())
    i, j = h.index("gpu__time_duration.sum"), h.index("dram__bytes.sum.per_second")
    u[i], v[i] = "usecond", "1,202.944"
    u[j], v[j] = "Gbyte/s", "475.95552245159"
    page = "\n".join(",".join(f'"{c}"' for c in r) for r in (h, u, v))
    k = metrics.kernels(page)[0]
    assert k.duration_us == pytest.approx(1202.944)
    assert k.dram_gbps == pytest.approx(475.956, rel=1e-5)


def test_other_pages_are_refused() -> None:
    with pytest.raises(metrics.ParseError):
        metrics.rows(recorded("transpose_naive.details.txt"))
    with pytest.raises(metrics.ParseError):
        metrics.rows("==ERROR== ERR_NVGPUCTRPERM - no permission\n")
    # The details page has the launch's columns but one row per metric, no metric columns.
    assert all(not r.values for r in metrics.rows(recorded("transpose_naive.details.csv")))
