"""Three plain-language hints from a profile's figures.

Each rule looks at one kernel's figures (or the roofline) and, when it applies, says what it
saw with the number that shows it, why it costs time and what usually fixes it. Rules give a
severity (the share of the time it likely costs, 0..1); the three most severe are shown, one
per rule and kernel at most. The thresholds follow Nsight Compute's own guidance: a warp's
fully coalesced request touches as many 32-byte sectors as it asks for bytes / 32; a shared
memory request without conflicts is one wavefront; occupancy under about half leaves a
memory-bound kernel short of loads in flight.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from judge.profile.report import Hint, KernelProfile, RooflinePoint

MAX_HINTS = 3
# Sectors per request when nothing says the access width: 32 threads x 4-byte words.
DEFAULT_IDEAL_SECTORS = 4.0
UNCOALESCED_RATIO = 1.5  # sectors per request above the ideal by this factor
BANK_CONFLICT_SHARE = 0.2  # conflicts per shared-memory wavefront
LOW_OCCUPANCY_PCT = 40.0
BUSY_PCT = 60.0  # a unit above this is doing its job
NEAR_PEAK_PCT = 80.0
STALL_SHARE = 40.0
_STALL_WORDS = {
    "long_scoreboard": "waiting for global or local memory (long scoreboard)",
    "barrier": "waiting at __syncthreads / a barrier",
    "mio_throttle": "queued behind shared-memory instructions (MIO throttle)",
    "short_scoreboard": "waiting for shared memory or special functions (short scoreboard)",
    "lg_throttle": "queued behind global memory instructions (LG throttle)",
    "math_pipe_throttle": "waiting for a busy math pipe",
    "wait": "on fixed-latency dependencies",
    "not_selected": "eligible but not picked (plenty of warps: fine)",
    "membar": "waiting at memory fences",
    "branch_resolving": "resolving branches",
    "dispatch_stall": "dispatch stalls",
    "no_instruction": "waiting for instructions (instruction cache misses)",
    "drain": "draining memory stores at exit",
    "imc_miss": "constant cache misses",
    "tex_throttle": "texture pipe throttle",
    "sleeping": "sleeping",
    "misc": "miscellaneous reasons",
}


def _share(k: KernelProfile, kernels: Sequence[KernelProfile]) -> float:
    """The kernel's share of the summed duration (1 with no durations)."""
    total = sum(x.duration_us or 0.0 for x in kernels)
    return (k.duration_us or 0.0) / total if total > 0 else 1.0


def _short(name: str) -> str:
    """A kernel's name without its argument list or template noise."""
    base = name.split("(", 1)[0].strip()
    return base if len(base) <= 60 else base[:57] + "..."


def uncoalesced(k: KernelProfile, share: float) -> Hint | None:
    for what, per, ideal in (
        ("loads", k.load_sectors_per_request, k.load_ideal_sectors),
        ("stores", k.store_sectors_per_request, k.store_ideal_sectors),
    ):
        want = ideal or DEFAULT_IDEAL_SECTORS
        if per is None or per <= UNCOALESCED_RATIO * want:
            continue
        waste = 1 - want / per
        return Hint(
            f"Uncoalesced global {what}: {per:.1f} sectors per request, ideal {want:.0f}",
            f"Each warp's {what[:-1]} touches {per / want:.1f}x the 32-byte sectors it needs, so "
            f"about {100 * waste:.0f}% of the memory traffic is wasted. Make neighbouring "
            "threads (threadIdx.x, or the fastest-varying offsets of a Triton block) access "
            "neighbouring addresses; to transpose, go through a shared-memory tile.",
            _short(k.name),
            round(share * waste, 3),
        )
    return None


def bank_conflicts(k: KernelProfile, share: float) -> Hint | None:
    if not k.bank_conflicts or not k.shared_wavefronts:
        return None
    part = k.bank_conflicts / k.shared_wavefronts
    if part < BANK_CONFLICT_SHARE:
        return None
    ways = (
        f" ({k.shared_wavefronts_per_request:.1f} wavefronts per request, ideal 1)"
        if k.shared_wavefronts_per_request
        else ""
    )
    return Hint(
        f"Shared-memory bank conflicts: {100 * part:.0f}% of shared accesses are replays{ways}",
        "Threads of a warp that hit the same bank at different addresses are served one after "
        "the other. A column of a [32][32] float tile sits in one bank: pad the row to 33 "
        "elements (or swizzle the index) so a column spreads over all 32 banks.",
        _short(k.name),
        round(share * part, 3),
    )


def low_occupancy(k: KernelProfile, share: float) -> Hint | None:
    got, cap = k.achieved_occupancy_pct, k.theoretical_occupancy_pct
    if got is None or got >= LOW_OCCUPANCY_PCT:
        return None
    busy = max(k.sm_pct or 0.0, k.memory_pct or 0.0)
    if busy >= NEAR_PEAK_PCT:
        return None  # busy with few warps: occupancy is not what holds it back
    if cap is not None and cap < LOW_OCCUPANCY_PCT and k.occupancy_limiter:
        why = {
            "registers": f"registers ({k.registers_per_thread} per thread): use fewer live "
            "values, smaller tiles, or __launch_bounds__ / fewer num_warps",
            "shared memory": f"shared memory ({k.shared_mem_per_block} bytes per block): "
            "smaller tiles or fewer pipeline stages",
            "block size": f"the block size ({k.block_size} threads): the SM fits few such "
            "blocks; try 128-256 threads",
            "blocks per SM": f"blocks per SM (blocks of {k.block_size} threads are too small "
            "to fill an SM's warp slots): use larger blocks",
            "barriers": "barriers per SM",
        }.get(k.occupancy_limiter, k.occupancy_limiter)
        title = f"Low occupancy: {got:.0f}% of warp slots busy, at most {cap:.0f}% possible"
        detail = f"Limited by {why}. Fewer warps in flight hide less memory latency."
    else:
        title = f"Low achieved occupancy: {got:.0f}% of warp slots busy" + (
            f" of {cap:.0f}% possible" if cap is not None else ""
        )
        detail = (
            f"The launch allows more warps than ran: too few blocks (grid {k.grid}) to fill "
            "every SM, or blocks that finish unevenly. Give the GPU more, smaller blocks."
        )
    return Hint(title, detail, _short(k.name), round(share * (1 - got / 100) * 0.6, 3))


def stalls(k: KernelProfile, share: float) -> Hint | None:
    if not k.stalls or k.stalls[0].pct < STALL_SHARE or k.stalls[0].reason == "not_selected":
        return None
    top = k.stalls[0]
    words = _STALL_WORDS.get(top.reason, top.reason.replace("_", " "))
    return Hint(
        f"Warps mostly stall {words}: {top.pct:.0f}% of stall cycles",
        {
            "long_scoreboard": "Loads are not in flight early enough: keep more independent "
            "loads per thread (unroll, larger blocks per program) or reuse data from shared "
            "memory instead of reloading it.",
            "barrier": "Threads wait for the slowest of their block: balance the work between "
            "barriers and avoid barriers inside tight loops.",
            "mio_throttle": "Too many shared-memory instructions: load wider words (float4) or "
            "keep reused values in registers.",
        }.get(top.reason, "This is where the warps' time goes; the table shows the next ones."),
        _short(k.name),
        round(share * top.pct / 100 * 0.5, 3),
    )


def idle(k: KernelProfile, share: float) -> Hint | None:
    busy = max(k.sm_pct or 0.0, k.memory_pct or 0.0, k.dram_pct or 0.0)
    if k.sm_pct is None or busy >= 30.0 or low_occupancy(k, share) is not None:
        return None  # low occupancy says why, where it applies
    return Hint(
        f"The GPU is mostly idle: SM {k.sm_pct:.0f}%, memory {busy:.0f}% of peak",
        f"Neither compute nor memory is busy (grid {k.grid}, block {k.block}): the kernel is "
        "too small or serial. Split the work over more blocks, or do more per launch.",
        _short(k.name),
        round(share * (1 - busy / 100) * 0.7, 3),
    )


def near_peak(k: KernelProfile, share: float) -> Hint | None:
    if k.dram_pct is None or k.dram_pct < NEAR_PEAK_PCT:
        return None
    return Hint(
        f"DRAM at {k.dram_pct:.0f}% of peak: bandwidth-bound and close to the limit",
        "Memory is doing what it can. Only moving fewer bytes helps now: fuse passes, read "
        "each input once, keep reused data on chip.",
        _short(k.name),
        round(share * 0.05, 3),
    )


def tensor_idle(kernels: Sequence[KernelProfile], tensor_problem: bool) -> Hint | None:
    if not tensor_problem or any(k.tensor_pct for k in kernels):
        return None
    return Hint(
        "Tensor cores unused",
        "This problem's matrix products can run on the tensor cores, which are many times "
        "faster than the FMA units: use tl.dot on tiles (Triton) or mma / WMMA (CUDA).",
        "",
        0.5,
    )


def rereads(point: RooflinePoint | None, problem_bytes: float) -> Hint | None:
    if point is None or problem_bytes <= 0 or point.bytes < 2 * problem_bytes:
        return None
    times = point.bytes / problem_bytes
    return Hint(
        f"DRAM traffic {times:.1f}x what the problem needs",
        f"The kernels moved {point.bytes / 1e6:.1f} MB where reading the inputs and writing "
        f"the outputs once takes {problem_bytes / 1e6:.1f} MB: data is reloaded. Tile it so "
        "each block reuses what it loaded (shared memory, or a larger Triton block).",
        "",
        round(min(0.9, 1 - 1 / times) * 0.8, 3),
    )


KernelRule = Callable[[KernelProfile, float], Hint | None]
KERNEL_RULES: tuple[KernelRule, ...] = (
    uncoalesced,
    bank_conflicts,
    low_occupancy,
    idle,
    stalls,
    near_peak,
)


def derive(
    kernels: Sequence[KernelProfile],
    point: RooflinePoint | None = None,
    problem_bytes: float = 0.0,
    tensor_problem: bool = False,
) -> list[Hint]:
    """The three most severe hints (fewer only when fewer rules apply)."""
    found: list[Hint] = []
    for k in kernels:
        share = _share(k, kernels)
        for rule in KERNEL_RULES:
            if (h := rule(k, share)) is not None:
                found.append(h)
    for h in (tensor_idle(kernels, tensor_problem), rereads(point, problem_bytes)):
        if h is not None:
            found.append(h)
    found.sort(key=lambda h: -h.severity)
    out: list[Hint] = []
    seen: set[str] = set()
    for h in found:
        kind = h.title.split(":", 1)[0]
        if kind in seen:  # the same rule on another kernel: the worst one is enough
            continue
        seen.add(kind)
        out.append(h)
    if not out and kernels:
        out.append(
            Hint(
                "Nothing stands out",
                "No rule found a clear waste: compare the duration with the speed of light on "
                "the benchmark, and look at the top stall reason in the table.",
            )
        )
    return out[:MAX_HINTS]
