# expect: wrong_answer
# expect-message: out of tolerance
# Bug: keeps the running sums in bfloat16 "to halve the registers". bfloat16 has 8 bits of
# mantissa: every addition rounds to ~2^-9 of the running sum, and once a sum is 256 times a
# product, adding the product changes nothing at all. The result is off by far more than
# float32 rounding allows. The fix: accumulate in float32 (the inputs are float32 already).
import torch
import triton
import triton.language as tl


@triton.jit
def partial_dots(a_ptr, b_ptr, part_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.bfloat16)  # BUG: should be float32
    for start in range(pid * BLOCK, n, tl.num_programs(0) * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        a = tl.load(a_ptr + offs, mask=mask, other=0.0)
        b = tl.load(b_ptr + offs, mask=mask, other=0.0)
        acc += (a * b).to(tl.bfloat16)
    tl.store(part_ptr + pid, tl.sum(acc, axis=0).to(tl.float32))


@triton.jit
def add_partials(part_ptr, out_ptr, p, BLOCK_P: tl.constexpr):
    offs = tl.arange(0, BLOCK_P)
    tl.store(out_ptr, tl.sum(tl.load(part_ptr + offs, mask=offs < p, other=0.0), axis=0))


def solve(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor, n: int):
    BLOCK = 1024
    p = min(triton.cdiv(n, BLOCK), 16)
    part = torch.empty(p, dtype=torch.float32, device=a.device)
    partial_dots[(p,)](a, b, part, n, BLOCK=BLOCK)
    add_partials[(1,)](part, out, p, BLOCK_P=16)
