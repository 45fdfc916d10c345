"""fp8 quantization with per-token dynamic scales: seeded bfloat16 activations, the exact
e4m3 rounding in float64, its error scale (where a correct kernel may round either way) and a
torch baseline.

Each row (token) of ``x`` gets its own scale ``s = max(amax, 1e-12) / 448`` (float32, amax the
row's largest |x|), and ``q = RNE_e4m3(x / s)``: round to the nearest float8 e4m3 value, ties
to the even one. Kinds:
- ``random``: N(0, 1) times a per-row magnitude 10^u, u uniform in [-3, 3]: per-token scales
  a thousand times apart, as in real activations.
- ``outliers``: N(0, 1) with one element per row a hundred to a thousand times larger (the
  outlier channels of LLM activations): most of the row lands in e4m3's subnormals.
- ``negative_max``: the row's largest magnitude is a negative value (kills a signed max).
- ``wide``: magnitudes log-uniform over 2^-22 .. 2^0 times the row's peak: every e4m3 binade,
  subnormals and underflow to zero included.
- ``ties``: amax = 448 * 2^j exactly, so s = 2^j and x / s is exact in any arithmetic; the
  values are e4m3 grid points and midpoints between them: ties must go to the even one.
- ``edge_peaks``: row r is N(0, 1) times 2^(8 r - 24) (at most 16 rows; the first row's amax
  is below 1, and below float16's normal range), and its peak, +-2 amax, is its last element
  in even rows and its first in odd ones: a loop that skips a row's first or last block
  misses the peak, a load one past a row's end reads the next row's first value, larger than
  the row's peak, and masked lanes filled with 1 instead of 0 raise the first row's max.
- ``zero_rows``: rows 0, 3, 6, ... all zeros (amax 0: the 1e-12 floor keeps the scale finite
  and q = 0), rows 1, 4, 7, ... with amax below 1e-12 (clamped too), the others random.
"""

from __future__ import annotations

import torch

FP8_MAX = 448.0  # the largest finite e4m3 value (float8_e4m3fn: no infinities)
AMAX_FLOOR = 1e-12  # as a float32 constant: the smallest amax a scale is made from
# Where the exact quotient x / s lies within this relative distance of a midpoint between two
# e4m3 values, either neighbour is accepted (problem.toml's [check] argues it).
MIDPOINT_BAND = 1e-5


def _rows(tokens: int, hidden: int, gen: torch.Generator, device: torch.device) -> torch.Tensor:
    return torch.randn(tokens, hidden, generator=gen, device=device, dtype=torch.float32)


def _ties(tokens: int, hidden: int, gen: torch.Generator, device: torch.device) -> torch.Tensor:
    # e4m3 grid points k * 2^(E-3) (k = 8..15) and midpoints (k + 1/2) * 2^(E-3), E in -6..8,
    # and subnormal ones (k / 2 * 2^-9, k = 0..15); random signs; one element of each row is
    # +-448, so amax = 448 and s = 1 before the row's power-of-two factor 2^j.
    E = torch.randint(-6, 9, (tokens, hidden), generator=gen, device=device).to(torch.float64)
    k = torch.randint(16, 32, (tokens, hidden), generator=gen, device=device).to(torch.float64)
    normal = k / 2 * torch.exp2(E - 3)
    sub = torch.randint(0, 16, (tokens, hidden), generator=gen, device=device) / 2 * 2.0**-9
    pick = torch.rand(tokens, hidden, generator=gen, device=device) < 0.2
    v = torch.where(pick, sub.to(torch.float64), normal).clamp(max=FP8_MAX)
    sign = torch.randint(0, 2, (tokens, hidden), generator=gen, device=device) * 2 - 1
    v = v * sign
    peak = torch.randint(hidden, (tokens,), generator=gen, device=device)
    v[torch.arange(tokens, device=device), peak] = FP8_MAX * sign[:, 0].to(v.dtype)
    j = torch.randint(-20, 21, (tokens, 1), generator=gen, device=device).to(torch.float64)
    return (v * torch.exp2(j)).to(torch.float32)


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """x (bfloat16, tokens x hidden); every random number comes from ``gen``."""
    tokens, hidden = params["tokens"], params["hidden"]
    if kind == "ties":
        x = _ties(tokens, hidden, gen, device)
    elif kind == "wide":
        mag = torch.exp2(-22.0 * torch.rand(tokens, hidden, generator=gen, device=device))
        sign = torch.randint(0, 2, (tokens, hidden), generator=gen, device=device) * 2 - 1
        scale = torch.exp2(torch.randint(-30, 31, (tokens, 1), generator=gen, device=device))
        x = mag * sign * scale
    else:
        x = _rows(tokens, hidden, gen, device)
        u = torch.rand(tokens, 1, generator=gen, device=device) * 6.0 - 3.0
        x = x * torch.pow(10.0, u)
        rows = torch.arange(tokens, device=device)
        spot = torch.randint(hidden, (tokens,), generator=gen, device=device)
        if kind == "outliers":
            big = 100.0 + 900.0 * torch.rand(tokens, generator=gen, device=device)
            x[rows, spot] = big * x.abs().amax(dim=1) * torch.sign(x[rows, spot] + 0.5)
        elif kind == "negative_max":
            x[rows, spot] = -2.0 * x.abs().amax(dim=1)
        elif kind == "edge_peaks":
            if tokens > 16:
                raise ValueError("edge_peaks: at most 16 rows (row r is scaled by 2^(8 r - 24))")
            x = _rows(tokens, hidden, gen, device) * torch.exp2(8.0 * rows - 24.0)[:, None]
            sign = torch.randint(0, 2, (tokens,), generator=gen, device=device) * 2 - 1
            col = torch.where(rows % 2 == 0, hidden - 1, 0)
            x[rows, col] = 2.0 * sign * x.abs().amax(dim=1)
        elif kind == "zero_rows":
            which = rows % 3  # zeros, tiny, random, zeros, ...: every kind in three rows
            x[which == 0] = 0.0
            tiny = torch.exp2(-torch.randint(41, 60, (tokens, 1), generator=gen, device=device))
            x = torch.where((which == 1)[:, None], x / x.abs().amax(1, keepdim=True) * tiny, x)
        elif kind != "random":
            raise ValueError(f"unknown kind {kind!r}")
    return {"x": x.to(torch.bfloat16)}


def _scales(x: torch.Tensor) -> torch.Tensor:
    """s = max(amax, 1e-12) / 448 per row, in float32 (one IEEE division)."""
    amax = x.abs().amax(dim=1).to(torch.float32)
    return torch.clamp(amax, min=AMAX_FLOOR) / FP8_MAX


def _grid(v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(t, step) with v = t * step exactly: step is e4m3's spacing in v's binade (2^-9 for
    subnormals), so e4m3 values are the integer t."""
    _, e = torch.frexp(v)  # v = m * 2^e with 0.5 <= |m| < 1: the binade is 2^(e - 1)
    step = torch.exp2((torch.clamp(e - 1, min=-6) - 3).to(torch.float64))
    return v / step, step


def _quotients(inputs: dict[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
    x = inputs["x"].to(torch.float32)
    s = _scales(x)
    return x.to(torch.float64) / s.to(torch.float64)[:, None], s


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """q = RNE_e4m3(x / s) from the exact quotient (torch.round rounds half to even), in
    float64; the scales in float32."""
    v, s = _quotients(inputs)
    t, step = _grid(v)
    q = torch.clamp(torch.round(t) * step, -FP8_MAX, FP8_MAX)
    return {"q": q, "scales": s}


def error_scale(
    inputs: dict[str, torch.Tensor], params: dict[str, int], expected: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor | float]:
    """With rtol = 1: q must be exact, except one e4m3 step either way where x / s lies within
    MIDPOINT_BAND of a midpoint and the scale is not a power of two (a float32 quotient an ulp
    off may round either way there; a power-of-two scale makes the quotient exact); scales
    within 2^-21 of themselves (a few float32 roundings)."""
    v, s = _quotients(inputs)
    t, step = _grid(v)
    off = (t - torch.floor(t) - 0.5).abs() * step
    near = off <= MIDPOINT_BAND * v.abs()
    mant, _ = torch.frexp(s.to(torch.float64))
    exact = (mant.abs() == 0.5)[:, None]
    return {
        "q": torch.where(near & ~exact, step, torch.zeros_like(step)),
        "scales": s.to(torch.float64).abs() * 2.0**-21,
    }


def baseline(
    x: torch.Tensor, q: torch.Tensor, scales: torch.Tensor, tokens: int, hidden: int
) -> None:
    """torch's per-token dynamic quantization: a float32 amax and division, then the cast
    (round to nearest even), written into q and scales."""
    amax = x.abs().amax(dim=1, keepdim=True).to(torch.float32).clamp_min(AMAX_FLOOR)
    s = amax / FP8_MAX
    q.copy_((x.to(torch.float32) / s).to(torch.float8_e4m3fn))
    scales.copy_(s.squeeze(1))
