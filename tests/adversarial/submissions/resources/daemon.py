# Threat class 9 (resource attacks): leave a process behind. Double fork, setsid (new session,
# out of the runner's process group), rename it "kdadvleftover" and sleep 600 s; then compute
# honestly. The test scans /proc for that name after grading: the sandbox's PID namespace and
# the referee's tree kill must have taken it down.
# expect: accepted, and no process named kdadvleftover survives
import ctypes
import os
import time

import triton
import triton.language as tl


def _leave_daemon() -> None:
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            try:
                ctypes.CDLL(None).prctl(15, b"kdadvleftover", 0, 0, 0)  # PR_SET_NAME
            except Exception:
                pass
            for fd in range(3, 256):
                try:
                    os.close(fd)
                except OSError:
                    pass
            time.sleep(600)
        os._exit(0)


_started = []


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def solve(a, b, c, n):
    if not _started:
        _started.append(1)
        _leave_daemon()
    block = 1024 if a.is_cuda else 1 << 16
    add_kernel[(triton.cdiv(n, block),)](a, b, c, n, BLOCK=block)
