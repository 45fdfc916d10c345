# expect: wrong_answer
# expect-message: ties to even
# Bug: round half away from zero, the rounding taught at school (floor(|t| + 0.5) with t's
# sign), where fp8 conversion rounds ties to even: 84 = 10.5 steps of 8 must give 80, not 88.
# Right everywhere but on exact midpoints, which a power-of-two scale makes exact (the tests
# named "ties to even"). The fix: ties to even (adding and taking away 1.5 * 2^23 does it).
import triton
import triton.language as tl


@triton.jit
def round_e4m3(v):
    # e4m3's spacing in v's binade is 2^(e - 3) (e >= -6: below 2^-6 the subnormals' 2^-9), so
    # v / step is an integer on the grid; 1.5 * 2^23 added and taken away rounds it to the
    # nearest integer, ties to even (float32 addition does).
    e = tl.maximum(((v.to(tl.int32, bitcast=True) >> 23) & 0xFF) - 127, -6)
    step = ((e + 124) << 23).to(tl.float32, bitcast=True)
    inv_step = ((130 - e) << 23).to(tl.float32, bitcast=True)
    t = v * inv_step
    away = tl.floor(tl.abs(t) + 0.5)  # BUG: ties away from zero
    return tl.where(t < 0, -away, away) * step


@triton.jit
def quantize_row(x_ptr, q_ptr, scales_ptr, hidden, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row.to(tl.int64) * hidden
    amax = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, hidden, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < hidden, other=0.0).to(tl.float32)
        amax = tl.maximum(amax, tl.abs(x))
    # IEEE divisions (div_rn): Triton's `/` on float32 is a 2-ulp approximation on a GPU, which
    # would move an exact tie (a power-of-two scale) off its midpoint.
    scale = tl.math.div_rn(tl.maximum(tl.max(amax, axis=0), 1e-12), 448.0)
    for start in range(0, hidden, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        live = cols < hidden
        x = tl.load(x_ptr + base + cols, mask=live, other=0.0).to(tl.float32)
        q = round_e4m3(tl.math.div_rn(x, scale))
        tl.store(q_ptr + base + cols, q.to(tl.float8e4nv), mask=live)
    tl.store(scales_ptr + row, scale)


def solve(x, q, scales, tokens: int, hidden: int):
    BLOCK = min(1024, triton.next_power_of_2(hidden))
    quantize_row[(tokens,)](x, q, scales, hidden, BLOCK=BLOCK)
