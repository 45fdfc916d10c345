# Threat class 1 (replay): key a cache on a checksum of a few input elements (first, middle,
# last of a and b), as published exploits did, all on the device. A key match means the judge
# handed over the same inputs again; this probe then writes GARBAGE instead of replaying, so a
# match turns into wrong_answer. `accepted` proves that every call (every test, every timed
# benchmark run) got fresh inputs, so a checksum-keyed replay can never trigger.
# expect: accepted (truthful: the key never matches)
import torch
import triton
import triton.language as tl

_saved = {}


@triton.jit
def add_or_flag(a_ptr, b_ptr, c_ptr, saved_ptr, n, BLOCK: tl.constexpr):
    last = n - 1
    mid = n // 2
    s0 = tl.load(a_ptr)
    s1 = tl.load(a_ptr + mid)
    s2 = tl.load(a_ptr + last)
    s3 = tl.load(b_ptr)
    s4 = tl.load(b_ptr + last)
    hit = (s0 == tl.load(saved_ptr)) & (s1 == tl.load(saved_ptr + 1)) & (s2 == tl.load(saved_ptr + 2)) \
        & (s3 == tl.load(saved_ptr + 3)) & (s4 == tl.load(saved_ptr + 4))
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    out = tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask)
    out = tl.where(hit, 12345.0, out)
    tl.store(c_ptr + offs, out, mask=mask)


@triton.jit
def remember(a_ptr, b_ptr, saved_ptr, n):
    tl.store(saved_ptr, tl.load(a_ptr))
    tl.store(saved_ptr + 1, tl.load(a_ptr + n // 2))
    tl.store(saved_ptr + 2, tl.load(a_ptr + n - 1))
    tl.store(saved_ptr + 3, tl.load(b_ptr))
    tl.store(saved_ptr + 4, tl.load(b_ptr + n - 1))


def solve(a, b, c, n):
    block = 1024 if a.is_cuda else 1 << 16
    if n not in _saved:
        _saved[n] = torch.full((8,), float("nan"), device=a.device, dtype=torch.float32)
    saved = _saved[n]
    add_or_flag[(triton.cdiv(n, block),)](a, b, c, saved, n, BLOCK=block)
    remember[(1,)](a, b, saved, n)
