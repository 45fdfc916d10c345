# expect: wrong_answer
# Bug: keeps the per-block partial sums in bfloat16 "to save memory". Each partial loses
# all but 8 bits of mantissa (up to 2^-9 ≈ 0.2% relative error), far beyond float32's
# tolerance for a sum.
import torch
import triton
import triton.language as tl


@triton.jit
def partial_sums(x_ptr, part_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(part_ptr + pid, tl.sum(x, axis=0).to(tl.bfloat16))


@triton.jit
def final_sum(part_ptr, out_ptr, p, BLOCK_P: tl.constexpr):
    acc = tl.zeros([BLOCK_P], dtype=tl.float32)
    for start in range(0, p, BLOCK_P):
        offs = start + tl.arange(0, BLOCK_P)
        acc += tl.load(part_ptr + offs, mask=offs < p, other=0.0).to(tl.float32)
    tl.store(out_ptr, tl.sum(acc, axis=0))


def solve(x: torch.Tensor, out: torch.Tensor, n: int):
    BLOCK = 1024
    p = triton.cdiv(n, BLOCK)
    part = torch.empty(p, dtype=torch.bfloat16, device=x.device)
    partial_sums[(p,)](x, part, n, BLOCK=BLOCK)
    final_sum[(1,)](part, out, p, BLOCK_P=1024)
