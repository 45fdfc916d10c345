# Threat class 9 (resource attacks): print 100 MB to stdout and stderr, then compute honestly.
# The log is a file under RLIMIT_FSIZE and the referee reads back only its first 16 KiB.
# expect: accepted, with the output truncated
import os
import sys

import triton
import triton.language as tl

_done = []


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def solve(a, b, c, n):
    if not _done:
        _done.append(1)
        line = b"spam " * 200 + b"\n"
        for _ in range(100_000):
            os.write(1, line)
        sys.stderr.write("spam on stderr\n" * 1000)
        sys.stderr.flush()
    block = 1024 if a.is_cuda else 1 << 16
    add_kernel[(triton.cdiv(n, block),)](a, b, c, n, BLOCK=block)
