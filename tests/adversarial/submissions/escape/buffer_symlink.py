# Threat class 10 (escape) through the referee: the referee creates each case's argument
# buffers as files in the shared work folder (CPU grading) by NAME (t2_a.buf, ...), and chmods
# them. During case 1 this plants symlinks t2_a.buf ... t9_c.buf -> the host canary file
# /tmp/kerneldojo-adversarial-canary (which the test creates, mode 0600). A referee that
# follows them truncates, overwrites and chmods 0666 a file of the worker's choosing outside
# the sandbox: with a root worker, any file. Computes honestly otherwise.
# expect: accepted, and the host canary file is untouched
import os

import triton
import triton.language as tl

CANARY = "/tmp/kerneldojo-adversarial-canary"
_done = []


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def solve(a, b, c, n):
    if not _done:
        _done.append(1)
        with open(CANARY, "wb") as f:  # the sandbox's own /tmp: the runner can map it
            f.truncate(64 << 20)
        for case in range(2, 10):
            for name in ("a", "b", "c"):
                try:
                    os.symlink(CANARY, f"/sandbox/t{case}_{name}.buf")
                except OSError:
                    pass
    block = 1024 if a.is_cuda else 1 << 16
    add_kernel[(triton.cdiv(n, block),)](a, b, c, n, BLOCK=block)
