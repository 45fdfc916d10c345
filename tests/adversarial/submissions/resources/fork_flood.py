# Threat class 9 (resource attacks): a (bounded) fork bomb: 200 children, each renamed
# "kdadvleftover" and sleeping 600 s, then compute honestly. Bounded so that the test machine
# stays sane; a real one is bounded by the host's pid limit (see SECURITY.md: no RLIMIT_NPROC
# when the worker runs as root, no pids cgroup). After grading none may survive.
# expect: accepted, and no process named kdadvleftover survives
import ctypes
import os
import time

import triton
import triton.language as tl

_started = []


def _flood(count: int) -> None:
    for _ in range(count):
        try:
            pid = os.fork()
        except OSError:
            return
        if pid == 0:
            try:
                ctypes.CDLL(None).prctl(15, b"kdadvleftover", 0, 0, 0)
            except Exception:
                pass
            time.sleep(600)
            os._exit(0)


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def solve(a, b, c, n):
    if not _started:
        _started.append(1)
        _flood(200)
    block = 1024 if a.is_cuda else 1 << 16
    add_kernel[(triton.cdiv(n, block),)](a, b, c, n, BLOCK=block)
