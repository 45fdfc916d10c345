# expect: wrong_answer
# expect-message: y: wrote past the end
# Bug: no tail mask. Every program loads and stores a whole block of 1024 elements, so the
# last program, whose block runs past n, writes GELU of whatever lies after x into the memory
# after y. Every value inside y is right; the stores past its end are the bug (on a GPU they
# overwrite a neighbour's data). Right only when n is a multiple of 1024. The fix:
# mask = offs < n, on the load and on the store.
import torch
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tl.store(y_ptr + offs, x * tl.sigmoid(2.0 * u))


def solve(x: torch.Tensor, y: torch.Tensor, n: int):
    BLOCK = 1024
    gelu_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
