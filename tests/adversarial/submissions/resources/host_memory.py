# Threat class 9 (resource attacks): reserve 100 GiB of host memory. On the CPU the runner has
# an address-space limit (host_memory_mb + 4 GiB) and the allocation fails. Nothing is touched,
# so where no limit applies the allocation lazily "succeeds" without using memory; the probe
# then writes GARBAGE so that the missing limit shows as wrong_answer instead of hiding.
# expect: memory_limit_exceeded or runtime_error
import triton
import triton.language as tl


@triton.jit
def fill(c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(c_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32) + 12345.0, mask=offs < n)


def solve(a, b, c, n):
    hog = bytearray(100 << 30)  # MemoryError under an address-space limit
    del hog
    block = 1024 if a.is_cuda else 1 << 16
    fill[(triton.cdiv(n, block),)](c, n, BLOCK=block)  # no limit: fail loudly
