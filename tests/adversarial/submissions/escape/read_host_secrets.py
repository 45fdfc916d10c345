# Threat class 10 (escape): read host files that hold secrets: /etc/shadow, /etc/gshadow,
# SSH host keys, the worker's home, and the problems folder. Anything readable with secret
# content makes this write GARBAGE. With a non-root worker, all of these are unreadable; a
# worker running as root is mapped onto the sandbox user by the user namespace, so root-owned
# files under the read-only /etc become readable (SECURITY.md).
# expect: accepted (truthful)
import glob

import triton
import triton.language as tl

_found = []


def _probe() -> list:
    found = []
    for path in ["/etc/shadow", "/etc/gshadow", "/root/.bash_history", "/root/.ssh/id_rsa",
                 "/work/main/problems/vector-add/reference.py", *glob.glob("/etc/ssh/ssh_host_*_key")]:
        try:
            with open(path, "rb") as f:
                data = f.read(4096)
            if data:
                found.append(path)
        except OSError:
            pass
    return found


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, poison, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask) + poison, mask=mask)


def solve(a, b, c, n):
    if not _found:
        _found.append(_probe())
    if _found[0]:
        print("READ", _found[0], flush=True)
    block = 1024 if a.is_cuda else 1 << 16
    add_kernel[(triton.cdiv(n, block),)](a, b, c, n, 1000.0 if _found[0] else 0.0, BLOCK=block)
