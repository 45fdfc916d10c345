# Threat class 3 (forgery): monkeypatch the runner's timer. torch.cuda.Event.elapsed_time is
# replaced so every timed call reports 0.0001 ms; the kernel itself is honest. The referee's own
# clock (gate.py) times every call, so the result is accepted at the honest time. The static
# policy refuses this source; the catalogue grades it with the policy off.
# On the CPU nothing is timed: it is graded accepted (the patch changes nothing there).
# expect: GPU accepted at an honest time; CPU accepted
import torch
import triton
import triton.language as tl

torch.cuda.Event.elapsed_time = lambda self, end: 0.0001  # the forgery


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def solve(a, b, c, n):
    block = 1024 if a.is_cuda else 1 << 16
    add_kernel[(triton.cdiv(n, block),)](a, b, c, n, BLOCK=block)
