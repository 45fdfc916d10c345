# expect: wrong_answer
# expect-message: out: wrote past the end
# Bug: the second pass stores the total the way an elementwise kernel stores its results,
# at out_ptr + offs, without a mask. The scalar total is broadcast over all BLOCK_P offsets,
# so the same number is written into out[0] and into the BLOCK_P - 1 floats after it: out
# holds one float, the rest lands in the memory after out (on a GPU, someone else's data).
# The sum itself is right. The fix: tl.store(out_ptr, total), or mask=offs < 1.
import torch
import triton
import triton.language as tl


@triton.jit
def partial_dots(a_ptr, b_ptr, part_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0)
    tl.store(part_ptr + tl.program_id(0), tl.sum(a * b, axis=0))


@triton.jit
def add_partials(part_ptr, out_ptr, p, BLOCK_P: tl.constexpr):
    acc = tl.zeros([BLOCK_P], dtype=tl.float32)
    for start in range(0, p, BLOCK_P):
        offs = start + tl.arange(0, BLOCK_P)
        acc += tl.load(part_ptr + offs, mask=offs < p, other=0.0)
    total = tl.sum(acc, axis=0)
    offs = tl.arange(0, BLOCK_P)
    tl.store(out_ptr + offs, total)  # BUG: out has one element


def solve(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor, n: int):
    BLOCK = 1024
    p = triton.cdiv(n, BLOCK)
    part = torch.empty(p, dtype=torch.float32, device=a.device)
    partial_dots[(p,)](a, b, part, n, BLOCK=BLOCK)
    add_partials[(1,)](part, out, p, BLOCK_P=1024)
