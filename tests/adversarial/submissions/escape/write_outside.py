# Threat class 10 (escape): write a marker file everywhere outside the work folder: the
# repository, the worker's home, /etc, /usr, /opt, /var, the host's /tmp, the venv, the judge's
# package. Writes into the sandbox's own private /tmp or its throw-away root may "succeed":
# the test checks the HOST for the marker files after grading. Computes honestly.
# expect: accepted, and no marker file appears on the host
import os

import triton
import triton.language as tl

MARKER = "kerneldojo-adversarial-escape-marker"
DIRS = ["/work/main", "/work", "/root", "/etc", "/usr", "/usr/local", "/opt", "/var", "/var/tmp",
        "/tmp", "/home", "/kerneldojo/judge", "/kerneldojo/judge/sandbox", "/work/main/.venv",
        "/work/main/problems/vector-add", "/sandbox/.."]


def _scatter() -> None:
    for d in DIRS:
        try:
            with open(os.path.join(d, MARKER), "w") as f:
                f.write("escaped")
        except OSError:
            pass
        try:
            os.symlink("/sandbox", os.path.join(d, MARKER + ".link"))
        except OSError:
            pass


_done = []


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def solve(a, b, c, n):
    if not _done:
        _done.append(1)
        _scatter()
    block = 1024 if a.is_cuda else 1 << 16
    add_kernel[(triton.cdiv(n, block),)](a, b, c, n, BLOCK=block)
