"""Typed results of a profile and of a sanitizer run, as they travel in ``GradeResult``."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Stall:
    """One warp-stall reason: cycles a warp spends stalled on it per issued instruction."""

    reason: str
    cycles: float
    pct: float  # of all stall cycles of the kernel


@dataclass
class KernelProfile:
    """What Nsight Compute measured for one kernel launched by ``solve``."""

    name: str
    grid: str = ""
    block: str = ""
    duration_us: float | None = None
    dram_bytes: float | None = None  # read + written
    dram_gbps: float | None = None
    dram_pct: float | None = None  # DRAM throughput, % of the GPU's peak
    memory_pct: float | None = None  # the busiest memory unit, % of peak
    sm_pct: float | None = None  # SM throughput, % of peak
    achieved_occupancy_pct: float | None = None
    theoretical_occupancy_pct: float | None = None
    # What caps the blocks per SM: "registers", "shared memory", "block size" (warps per SM),
    # "blocks per SM"; None when nothing was read.
    occupancy_limiter: str | None = None
    registers_per_thread: int | None = None
    shared_mem_per_block: int | None = None  # bytes, static + dynamic
    block_size: int | None = None
    l1_hit_pct: float | None = None
    l2_hit_pct: float | None = None
    stalls: list[Stall] = field(default_factory=list)  # the largest first
    tensor_pct: float | None = None  # tensor pipe utilisation, where the kernel used it
    flops: float | None = None  # floating-point operations counted from the SASS
    # Global memory: L1 sectors per request for loads and stores, and the ideal for the access
    # width the kernel used (4 sectors for a warp's 32 contiguous 4-byte words).
    load_sectors_per_request: float | None = None
    store_sectors_per_request: float | None = None
    load_ideal_sectors: float | None = None
    store_ideal_sectors: float | None = None
    excessive_sectors_pct: float | None = None  # of the global sectors, beyond the ideal
    bank_conflicts: float | None = None  # shared-memory bank conflicts (wavefronts beyond one)
    shared_wavefronts: float | None = None
    shared_requests: float | None = None
    # The worse of loads and stores: 1 without conflicts, 32 for a column of a [32][32] tile.
    shared_wavefronts_per_request: float | None = None


@dataclass
class RooflinePoint:
    """``solve`` as a whole against the GPU's measured roofline."""

    flops: float  # the problem's own count for the case
    bytes: float  # DRAM bytes the kernels moved (ncu), or the problem's count if none read
    seconds: float  # the kernels' summed duration
    intensity: float  # FLOP per byte
    achieved_tflops: float
    achieved_gbps: float
    peak_tflops: float  # the judge's measured ceilings (timing.ceiling)
    peak_gbps: float
    ridge: float  # intensity where the two roofs meet
    bound: str  # "memory" or "compute"
    pct_of_roof: float  # achieved FLOP/s over the roof at this intensity


@dataclass
class Hint:
    """A plain-language hint, the kernel it is about and the figure that raised it."""

    title: str
    detail: str
    kernel: str = ""
    severity: float = 0.0  # how much it likely costs, 0..1: hints are ordered by it


@dataclass
class ProfileReport:
    enabled: bool
    message: str = ""
    case: str = ""  # the benchmark case profiled
    kernels: list[KernelProfile] = field(default_factory=list)
    roofline: RooflinePoint | None = None
    hints: list[Hint] = field(default_factory=list)
    # The raw report, kept by the referee (never the copy left in the sandbox's folder):
    # its file name for a download, and its size.
    report_file: str | None = None
    report_bytes: int = 0
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Finding:
    """One sanitizer finding, mapped to the submission's source where line info exists."""

    kind: str  # "invalid global write", "race", "out-of-bounds load", ...
    message: str  # one line a learner reads
    file: str | None = None
    line: int | None = None
    kernel: str | None = None
    thread: str | None = None
    block: str | None = None
    details: list[str] = field(default_factory=list)


@dataclass
class SanitizerReport:
    tool: str  # "memcheck", "racecheck", "interpreter"
    enabled: bool = True
    message: str = ""
    case: str = ""
    findings: list[Finding] = field(default_factory=list)
    errors: int = 0  # as the tool counted them (its summary), at least len(findings)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
