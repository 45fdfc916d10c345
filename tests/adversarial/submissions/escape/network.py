# Threat class 10 (escape): reach the broker (Redis, 127.0.0.1:6379), the database (PostgreSQL,
# 127.0.0.1:5432), a public DNS server (1.1.1.1:53, TCP and UDP) and the loopback web app.
# The sandbox has its own network namespace (no interfaces but its own loopback). Any
# connection that succeeds makes this write GARBAGE: `accepted` proves the network is out of
# reach.
# expect: accepted (truthful)
import socket

import triton
import triton.language as tl

TARGETS = [("127.0.0.1", 6379), ("127.0.0.1", 5432), ("127.0.0.1", 8000), ("1.1.1.1", 53),
           ("8.8.8.8", 443), ("::1", 6379)]


def _reached() -> list:
    hits = []
    for host, port in TARGETS:
        fam = socket.AF_INET6 if ":" in host else socket.AF_INET
        try:
            s = socket.socket(fam, socket.SOCK_STREAM)
            s.settimeout(1.0)
            s.connect((host, port))
            hits.append((host, port))
            s.close()
        except OSError:
            pass
    try:  # UDP: a DNS query for example.com to 1.1.1.1; any answer is a leak
        u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        u.settimeout(1.0)
        u.sendto(bytes.fromhex("abcd01000001000000000000076578616d706c6503636f6d0000010001"), ("1.1.1.1", 53))
        u.recvfrom(512)
        hits.append("udp 1.1.1.1:53")
    except OSError:
        pass
    return hits


_hits = []


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, poison, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask) + poison, mask=mask)


def solve(a, b, c, n):
    if not _hits:
        _hits.append(_reached())
    if _hits[0]:
        print("REACHED", _hits[0], flush=True)
    block = 1024 if a.is_cuda else 1 << 16
    add_kernel[(triton.cdiv(n, block),)](a, b, c, n, 1000.0 if _hits[0] else 0.0, BLOCK=block)
