# expect: wrong_answer
# expect-message: c: wrote past the end
# Bug: no tail mask. Every program loads and stores a whole block of 1024 elements, so the
# last program, whose block runs past n, writes a + b into the memory after c (and reads
# past the ends of a and b). The values inside c are all right; the writes past its end are
# what is wrong: on a GPU they overwrite whatever lies next to c. Right only when n is a
# multiple of 1024. The fix: mask = offs < n, on both loads and on the store.
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(c_ptr + offs, a + b)


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, n: int):
    BLOCK = 1024
    add_kernel[(triton.cdiv(n, BLOCK),)](a, b, c, n, BLOCK=BLOCK)
