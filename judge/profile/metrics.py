"""Nsight Compute's raw CSV page, read into one ``KernelProfile`` per kernel.

``ncu --import R --csv --page raw --print-units base`` prints one header row (the launch's
columns, "ID", "Kernel Name", "Block Size"..., then every metric by name), one row of units,
and one row per profiled kernel. Values may carry thousands separators; "n/a" and empty cells
mean not collected. Units are read from the units row and scaled to base units, so a page
printed without ``--print-units base`` (µs, Gbyte/s) reads the same.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass

from judge.profile.report import KernelProfile, Stall

# Multipliers to the base unit (nanoseconds for time, bytes, bytes per second, ...).
_PREFIX = {"": 1.0, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "k": 1e3}
_TIME = {"ns": 1.0, "nsecond": 1.0, "us": 1e3, "usecond": 1e3, "ms": 1e6, "msecond": 1e6}
_TIME |= {"s": 1e9, "second": 1e9}
_STALL = re.compile(r"^smsp__average_warps?_issue_stalled_(\w+?)_per_issue_active\.ratio$")
_PC_STALL = re.compile(r"^smsp__pcsamp_warps_issue_stalled_(\w+?)(?:_not_issued)?$")
# Not stalls: an issuing warp, and the samples' own totals.
_NOT_STALLS = {"selected", "sampling_samples", "samples"}
_LIMITS = {
    "launch__occupancy_limit_registers": "registers",
    "launch__occupancy_limit_shared_mem": "shared memory",
    "launch__occupancy_limit_warps": "block size",
    "launch__occupancy_limit_blocks": "blocks per SM",
    "launch__occupancy_limit_barriers": "barriers",
}


class ParseError(ValueError):
    """The text is not an ncu CSV page this module understands."""


@dataclass
class Row:
    """One kernel's cells: the launch's own columns and its metrics in base units."""

    info: dict[str, str]
    values: dict[str, float]

    def get(self, *names: str) -> float | None:
        """The first of ``names`` that was collected."""
        for n in names:
            if n in self.values:
                return self.values[n]
        return None

    def total(self, *names: str) -> float | None:
        """The sum of those of ``names`` that were collected, or None if none was."""
        got = [self.values[n] for n in names if n in self.values]
        return sum(got) if got else None


def _number(cell: str) -> float | None:
    text = cell.strip().replace(",", "")
    if not text or text.lower() in ("n/a", "nan", "-"):
        return None
    try:
        return float(text)
    except ValueError:
        return None


def _scale(unit: str) -> float:
    u = unit.strip()
    if u in _TIME:
        return _TIME[u]
    for base in ("byte/second", "byte/s", "byte", "inst", "sector", "hz"):
        if u.endswith(base):
            return _PREFIX.get(u[: -len(base)], 1.0)
    return 1.0


_INFO = {"ID", "Context", "Stream", "Device", "CC"}


def is_metric(name: str) -> bool:
    """A metric's name is one word (``dram__bytes_read.sum``, ``memory_l2_theoretical_sectors_
    global``); the launch's own columns are capitalised words ("Kernel Name", "ID") and the NVTX
    columns name their domain ("thread Domain:Push/Pop_Range:...")."""
    return name not in _INFO and " " not in name and ":" not in name


def rows(text: str) -> list[Row]:
    """Every kernel row of a raw page (``--page raw``)."""
    lines = [ln for ln in text.splitlines() if ln.startswith('"')]  # ncu's own notes start ==
    table = list(csv.reader(io.StringIO("\n".join(lines))))
    if not table:
        raise ParseError("no CSV rows: not ncu's raw page")
    header = table[0]
    if "Kernel Name" not in header or "ID" not in header:
        raise ParseError("no 'ID' and 'Kernel Name' columns: not ncu's raw page")
    id_col = header.index("ID")
    units: list[str] = [""] * len(header)
    out: list[Row] = []
    for cells in table[1:]:
        if len(cells) != len(header):
            continue
        if not cells[id_col].strip().isdigit():  # the units row
            units = cells
            continue
        info: dict[str, str] = {}
        values: dict[str, float] = {}
        for name, unit, cell in zip(header, units, cells, strict=True):
            if not is_metric(name):
                info[name] = cell
                continue
            v = _number(cell)
            if v is not None:
                values[name] = v * _scale(unit)
        out.append(Row(info, values))
    return out


def _limiter(row: Row) -> str | None:
    """The occupancy limit that allows the fewest blocks per SM (ties: the first named); none
    when the launch can fill every warp slot."""
    if (row.get("sm__maximum_warps_per_active_cycle_pct") or 0.0) >= 100.0:
        return None
    found = [(v, what) for key, what in _LIMITS.items() if (v := row.get(key)) is not None]
    if not found:
        return None
    return min(found, key=lambda p: p[0])[1]


def _stalls(row: Row) -> list[Stall]:
    raw: dict[str, float] = {}
    for pattern in (_STALL, _PC_STALL):
        for name, v in row.values.items():
            m = pattern.match(name)
            if m and m.group(1) not in _NOT_STALLS and v > 0:
                raw[m.group(1)] = raw.get(m.group(1), 0.0) + v
        if raw:  # per-issue ratios when collected; the PC samples otherwise
            break
    total = sum(raw.values())
    return [
        Stall(reason, round(v, 3), round(100 * v / total, 1))
        for reason, v in sorted(raw.items(), key=lambda p: -p[1])
    ][:5]


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


def _flops(row: Row) -> float | None:
    """FP32, FP16 and FP64 operations from the SASS counts (an FMA is two). The full set has
    them per elapsed cycle, summed over the SM sub-partitions: times the cycles elapsed."""
    cycles = row.get("smsp__cycles_elapsed.avg")
    total = 0.0
    seen = False
    for prec in ("f", "h", "d"):
        for op, weight in (("add", 1.0), ("mul", 1.0), ("fma", 2.0)):
            name = f"smsp__sass_thread_inst_executed_op_{prec}{op}_pred_on.sum"
            v = row.get(name)
            if v is None and cycles is not None:
                rate = row.get(f"{name}.per_cycle_elapsed")
                v = rate * cycles if rate is not None else None
            if v is not None:
                total += weight * v
                seen = True
    return total if seen else None


def _tensor_pct(row: Row) -> float | None:
    best: float | None = None
    for name, v in row.values.items():
        if (
            name.startswith("sm__pipe_tensor")
            and "cycles_active.avg." in name
            and name.endswith("pct_of_peak_sustained_active")
        ):
            best = v if best is None else max(best, v)
    return best if best else None  # an idle tensor pipe is not worth a column


def _ideal_sectors(row: Row, op: str) -> float | None:
    """Sectors a request would touch if the warp's threads used contiguous words: the bytes a
    warp asks for over 32. ncu counts the bytes each sector delivers that a thread used."""
    sectors = row.get(f"l1tex__t_sectors_pipe_lsu_mem_global_op_{op}.sum")
    requests = row.get(f"l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum")
    used = row.get(f"smsp__sass_average_data_bytes_per_sector_mem_global_op_{op}.ratio")
    per = _ratio(sectors, requests)
    if per is None or used is None:
        return None
    return max(1.0, per * used / 32)


def kernel(row: Row) -> KernelProfile:
    """One kernel's figures from its raw row."""
    ns = row.get("gpu__time_duration.sum")
    dram = row.total("dram__bytes_read.sum", "dram__bytes_write.sum")
    if dram is None:
        dram = row.get("dram__bytes.sum")
    gbps = row.get("dram__bytes.sum.per_second")
    if gbps is None and dram is not None and ns:
        gbps = dram / (ns * 1e-9)
    smem = row.total("launch__shared_mem_per_block_static", "launch__shared_mem_per_block_dynamic")
    regs = row.get("launch__registers_per_thread")
    block = row.get("launch__block_size")
    conflicts = row.total(
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    )
    wavefronts = row.total(
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    )
    shared_req = row.total(
        "smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_st.sum"
    )
    ways = [
        w
        for op in ("ld", "st")
        if (
            w := _ratio(
                row.get(f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"),
                row.get(f"smsp__sass_inst_executed_op_shared_{op}.sum"),
            )
        )
        is not None
    ]
    ideal = row.get("memory_l2_theoretical_sectors_global_ideal")
    actual = row.get("memory_l2_theoretical_sectors_global")
    excessive = (
        100 * (actual - ideal) / actual if actual and ideal is not None and actual > ideal else None
    )
    return KernelProfile(
        name=row.info.get("Kernel Name", "?"),
        grid=row.info.get("Grid Size", ""),
        block=row.info.get("Block Size", ""),
        duration_us=ns / 1e3 if ns is not None else None,
        dram_bytes=dram,
        dram_gbps=gbps / 1e9 if gbps is not None else None,
        dram_pct=row.get(
            "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
            "dram__throughput.avg.pct_of_peak_sustained_elapsed",
        ),
        memory_pct=row.get("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"),
        sm_pct=row.get("sm__throughput.avg.pct_of_peak_sustained_elapsed"),
        achieved_occupancy_pct=row.get("sm__warps_active.avg.pct_of_peak_sustained_active"),
        theoretical_occupancy_pct=row.get("sm__maximum_warps_per_active_cycle_pct"),
        occupancy_limiter=_limiter(row),
        registers_per_thread=int(regs) if regs is not None else None,
        shared_mem_per_block=int(smem) if smem is not None else None,
        block_size=int(block) if block is not None else None,
        l1_hit_pct=row.get("l1tex__t_sector_hit_rate.pct"),
        l2_hit_pct=row.get("lts__t_sector_hit_rate.pct"),
        stalls=_stalls(row),
        tensor_pct=_tensor_pct(row),
        flops=_flops(row),
        load_sectors_per_request=_ratio(
            row.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
            row.get("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
        ),
        store_sectors_per_request=_ratio(
            row.get("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
            row.get("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
        ),
        load_ideal_sectors=_ideal_sectors(row, "ld"),
        store_ideal_sectors=_ideal_sectors(row, "st"),
        excessive_sectors_pct=excessive,
        bank_conflicts=conflicts,
        shared_wavefronts=wavefronts,
        shared_requests=shared_req,
        shared_wavefronts_per_request=max(ways) if ways else None,
    )


def kernels(text: str) -> list[KernelProfile]:
    """Every kernel of a raw page, in launch order."""
    return [kernel(r) for r in rows(text)]


def metric_names(rows_: Iterable[Row]) -> set[str]:
    return {n for r in rows_ for n in r.values}
