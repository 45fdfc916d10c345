"""Where ``solve`` sits on the GPU's roofline, from the profile and the judge's ceilings.

The ceilings are the judge's own measurements on this GPU (``timing.ceiling``: the best copy
bandwidth and the compute unit the problem names), the same ones ``sol_pct`` uses, so a profile
and a benchmark agree on what "near the roof" means. The FLOP count is the problem's own
formula for the case (the work the answer needs, whatever the kernels did); the bytes are what
the kernels moved to and from DRAM as ncu counted them, so a kernel that rereads its inputs
shows a lower intensity than the problem's.
"""

from __future__ import annotations

from collections.abc import Sequence

from judge.profile.report import KernelProfile, RooflinePoint


def place(
    kernels: Sequence[KernelProfile],
    flops: float,
    problem_bytes: float,
    peak_flops: float,
    peak_bytes_per_s: float,
) -> RooflinePoint | None:
    """The point for the kernels together, or None without a duration or a bandwidth ceiling.
    A problem without FLOP (a copy, a transpose) needs no compute ceiling: ``peak_flops`` 0."""
    seconds = sum(k.duration_us or 0.0 for k in kernels) / 1e6
    if seconds <= 0 or peak_bytes_per_s <= 0 or (flops > 0 and peak_flops <= 0):
        return None
    read = [k.dram_bytes for k in kernels if k.dram_bytes is not None]
    nbytes = sum(read) if read else problem_bytes
    if nbytes <= 0:
        nbytes = problem_bytes or 1.0
    intensity = flops / nbytes
    achieved = flops / seconds
    ridge = peak_flops / peak_bytes_per_s if peak_flops > 0 else float("inf")
    # Under the sloped roof the bandwidth is what is used up (and all there is without FLOP).
    memory = intensity < ridge
    pct = nbytes / seconds / peak_bytes_per_s if memory else achieved / peak_flops
    return RooflinePoint(
        flops=flops,
        bytes=nbytes,
        seconds=seconds,
        intensity=round(intensity, 4),
        achieved_tflops=round(achieved / 1e12, 4),
        achieved_gbps=round(nbytes / seconds / 1e9, 2),
        peak_tflops=round(peak_flops / 1e12, 3),
        peak_gbps=round(peak_bytes_per_s / 1e9, 1),
        ridge=round(ridge, 3) if peak_flops > 0 else 0.0,
        bound="memory" if memory else "compute",
        pct_of_roof=round(100 * pct, 1),
    )
