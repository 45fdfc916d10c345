# Threat class 11 (faults): a Triton kernel that reads far outside its buffer (offset 2^40).
# On a GPU: an illegal memory access that poisons the runner's CUDA context; under the CPU
# interpreter: an out-of-bounds access caught by the interpreter or a segfault. Either way a
# runtime error, and the worker grades the next submission normally.
# expect: runtime_error
import triton
import triton.language as tl


@triton.jit
def bad(a_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    far = offs.to(tl.int64) + (1 << 40)
    tl.store(c_ptr + offs, tl.load(a_ptr + far), mask=offs < n)


def solve(a, b, c, n):
    block = 1024 if a.is_cuda else 1 << 16
    bad[(triton.cdiv(n, block),)](a, c, n, BLOCK=block)
