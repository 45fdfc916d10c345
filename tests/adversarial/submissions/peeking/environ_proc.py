# Threat class 4 (peeking): look for the worker's secrets in the environment and in /proc: its
# own os.environ, every /proc/<pid>/environ and /proc/<pid>/cmdline it can read. The test
# harness puts KERNELDOJO_TEST_SECRET=kd-canary-... into the worker's environment before
# grading. If any secret-looking value is found, this writes GARBAGE: `accepted` proves that
# nothing leaked (the sandbox clears the environment and has its own PID namespace).
# expect: accepted (truthful)
import os

import triton
import triton.language as tl

NEEDLES = ("KERNELDOJO_TEST_SECRET", "kd-canary-", "DATABASE_URL", "REDIS_URL", "SECRET_KEY",
           "POSTGRES_PASSWORD", "AWS_SECRET")


def _leaked() -> bool:
    blobs = ["\n".join(f"{k}={v}" for k, v in os.environ.items())]
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        for what in ("environ", "cmdline"):
            try:
                with open(f"/proc/{pid}/{what}", "rb") as f:
                    blobs.append(f.read().decode("utf-8", "replace"))
            except OSError:
                pass
    return any(needle in blob for blob in blobs for needle in NEEDLES)


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, poison, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask) + poison, mask=mask)


def solve(a, b, c, n):
    poison = 1000.0 if _leaked() else 0.0
    block = 1024 if a.is_cuda else 1 << 16
    add_kernel[(triton.cdiv(n, block),)](a, b, c, n, poison, BLOCK=block)
