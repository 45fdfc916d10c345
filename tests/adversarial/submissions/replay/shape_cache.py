# Threat class 1 (replay): cache the output keyed on the problem size n; when a later call has
# the same n, copy the cached output into c instead of computing a + b.
# The judge defends by generating fresh random inputs for every call (tests and every timed
# benchmark run) and checking every output: a replayed output is wrong for the new inputs.
# expect: wrong_answer
import triton
import triton.language as tl

_cache = {}


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


@triton.jit
def copy_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)


def solve(a, b, c, n):
    block = 1024 if a.is_cuda else 1 << 16
    grid = (triton.cdiv(n, block),)
    if n in _cache:
        copy_kernel[grid](_cache[n], c, n, BLOCK=block)  # replay: no addition at all
        return
    add_kernel[grid](a, b, c, n, BLOCK=block)
    saved = c.new_empty(c.shape)
    copy_kernel[grid](c, saved, n, BLOCK=block)
    _cache[n] = saved
