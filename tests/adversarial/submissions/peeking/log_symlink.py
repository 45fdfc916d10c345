# Threat class 4 (peeking) through the referee: the referee reads the submission's output log
# (output.log in the work folder) and returns it to the learner as "stdout". Replace that file
# with a symlink to /proc/self/environ: if the referee re-opens the log by name, it follows the
# link in ITS OWN file system and hands back the worker's environment (secrets included); the
# test then finds the canary secret in the result. Otherwise computes honestly.
# expect: accepted, and the result's stdout holds none of the worker's environment
import os

import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def solve(a, b, c, n):
    try:
        if not os.path.islink("/sandbox/output.log"):
            os.unlink("/sandbox/output.log")
            os.symlink("/proc/self/environ", "/sandbox/output.log")
    except OSError:
        pass
    block = 1024 if a.is_cuda else 1 << 16
    add_kernel[(triton.cdiv(n, block),)](a, b, c, n, BLOCK=block)
