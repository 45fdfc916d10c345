# Threat class 9 (resource attacks): an unbounded fork bomb. At its first call every process
# forks for ever (a refused fork is tried again 20 times a second), each child renamed
# "kdadvleftover"; the first process stops at its first refused fork, prints its errno and
# computes honestly. The sandbox's process limit (judge/sandbox/nproc.py) refuses the forks with
# EAGAIN; the worker must grade on, and kill every child at the end.
# expect: accepted, "fork refused: EAGAIN" in its output, no kdadvleftover left behind
import ctypes
import errno
import os
import time

import triton
import triton.language as tl

_started = []


def _bomb() -> None:
    while True:
        try:
            pid = os.fork()
        except OSError:
            time.sleep(0.05)
            continue
        if pid == 0:
            try:
                ctypes.CDLL(None).prctl(15, b"kdadvleftover", 0, 0, 0)  # PR_SET_NAME
            except Exception:
                pass


def _start() -> None:
    while True:
        try:
            pid = os.fork()
        except OSError as e:
            print(f"fork refused: {errno.errorcode.get(e.errno, e.errno)}", flush=True)
            return
        if pid == 0:
            try:
                ctypes.CDLL(None).prctl(15, b"kdadvleftover", 0, 0, 0)
            except Exception:
                pass
            _bomb()


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(
        c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask
    )


def solve(a, b, c, n):
    if not _started:
        _started.append(1)
        _start()
    block = 1024 if a.is_cuda else 1 << 16
    add_kernel[(triton.cdiv(n, block),)](a, b, c, n, BLOCK=block)
