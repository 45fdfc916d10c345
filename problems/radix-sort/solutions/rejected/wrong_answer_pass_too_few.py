# expect: wrong_answer
# expect-message: not in ascending order
# Bug: the loop over digits stops one pass early: range(0, 28, 4) covers bits 0..27 and never
# sorts by the top digit (bits 28..31). The result is sorted by the low 28 bits only. Seven
# passes are odd, so a last kernel copies the result back into keys and vals.
import torch
import triton
import triton.language as tl

RADIX_BITS = 4
RADIX = 1 << RADIX_BITS


@triton.jit
def digits(k, shift, RADIX: tl.constexpr):
    return ((k >> shift) & (RADIX - 1)).to(tl.int32)


@triton.jit
def count_kernel(keys_ptr, counts_ptr, n, blocks, shift, BLOCK: tl.constexpr, RADIX: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    d = digits(tl.load(keys_ptr + offs, mask=mask, other=0), shift, RADIX)
    onehot = (d[:, None] == tl.arange(0, RADIX)[None, :]) & mask[:, None]
    counts = tl.sum(onehot.to(tl.int32), axis=0)
    tl.store(counts_ptr + tl.arange(0, RADIX) * blocks + pid, counts)


@triton.jit
def scan_kernel(counts_ptr, total, CHUNK: tl.constexpr):
    carry = tl.zeros([], dtype=tl.int32)
    for start in range(0, total, CHUNK):
        offs = start + tl.arange(0, CHUNK)
        mask = offs < total
        c = tl.load(counts_ptr + offs, mask=mask, other=0)
        tl.store(counts_ptr + offs, carry + tl.cumsum(c, axis=0) - c, mask=mask)  # exclusive
        carry += tl.sum(c, axis=0)


@triton.jit
def scatter_kernel(
    src_k, src_v, dst_k, dst_v, slots_ptr, n, blocks, shift,
    BLOCK: tl.constexpr, RADIX: tl.constexpr,
):  # fmt: skip
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    k = tl.load(src_k + offs, mask=mask, other=0)
    v = tl.load(src_v + offs, mask=mask, other=0)
    d = digits(k, shift, RADIX)
    onehot = ((d[:, None] == tl.arange(0, RADIX)[None, :]) & mask[:, None]).to(tl.int32)
    before = tl.cumsum(onehot, axis=0) - onehot  # earlier elements with each digit
    rank = tl.sum(before * onehot, axis=1)  # ... with this element's digit
    slot = tl.load(slots_ptr + d * blocks + pid, mask=mask, other=0)
    dst = slot + rank
    tl.store(dst_k + dst, k, mask=mask)
    tl.store(dst_v + dst, v, mask=mask)


@triton.jit
def copy_kernel(src_k, src_v, dst_k, dst_v, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst_k + offs, tl.load(src_k + offs, mask=mask), mask=mask)
    tl.store(dst_v + offs, tl.load(src_v + offs, mask=mask), mask=mask)


def solve(keys: torch.Tensor, vals: torch.Tensor, n: int):
    BLOCK = 1024
    blocks = triton.cdiv(n, BLOCK)
    counts = torch.empty(RADIX * blocks, dtype=torch.int32, device=keys.device)
    src = (keys, vals)
    dst = (torch.empty_like(keys), torch.empty_like(vals))
    for shift in range(0, 28, RADIX_BITS):  # BUG: 32
        count_kernel[(blocks,)](src[0], counts, n, blocks, shift, BLOCK=BLOCK, RADIX=RADIX)
        scan_kernel[(1,)](counts, RADIX * blocks, CHUNK=1024)
        scatter_kernel[(blocks,)](
            src[0], src[1], dst[0], dst[1], counts, n, blocks, shift, BLOCK=BLOCK, RADIX=RADIX
        )
        src, dst = dst, src
    copy_kernel[(blocks,)](src[0], src[1], keys, vals, n, BLOCK=BLOCK)
