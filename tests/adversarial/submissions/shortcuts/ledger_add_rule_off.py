# Threat class 8 (shortcuts), issue #36: the in-process rule switched off, as a code-string route
# would do it, then torch.add computes c next to a Triton kernel of the submission's own (a copy
# into a scratch buffer, so its own kernel name is in the ledger too). Graded past the static
# policy: only the referee's kernel ledger (judge/sandbox/ledger.py) stands behind it, and it sees
# torch's add kernel launched on the GPU whatever Python was made to believe.
# expect: rejected
import torch
import triton
import triton.language as tl
from torch.utils._python_dispatch import _disable_current_modes


@triton.jit
def copy_kernel_of_mine(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(src + offs, mask=offs < n), mask=offs < n)


def solve(a, b, c, n):
    scratch = torch.empty_like(a)
    copy_kernel_of_mine[(triton.cdiv(n, 1024),)](a, scratch, n, BLOCK=1024)
    with _disable_current_modes():
        torch.add(scratch, b, out=c)
