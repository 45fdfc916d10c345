# expect: wrong_answer
# expect-message: vals: wrote past the end
# Bug: the final store writes all K = max(2, next_pow2(k)) selected candidates, without the mask
# j < k. When k is not a power of two (or is 1), each row writes K - k extra entries into the
# next row of vals and idx (which that row's program may or may not overwrite in time) and the
# last row writes past the end of both. The fix: mask=j < k on both stores.
import torch
import triton
import triton.language as tl

LOW = tl.constexpr(2147483647)


@triton.jit
def topk_kernel(x_ptr, vals_ptr, idx_ptr, v, k, C: tl.constexpr, K: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, C)
    valid = cols < v
    x = tl.load(x_ptr + row * v + cols, mask=valid, other=0.0)
    bits = x.to(tl.int32, bitcast=True)
    key = tl.where(bits < 0, bits ^ 0x7FFFFFFF, bits)
    packed = (key.to(tl.int64) << 32) | (cols * -1 + LOW).to(tl.int64)
    packed = tl.where(valid, packed, -9223372036854775807 - 1)
    top = tl.topk(packed, K, dim=0)
    key = (top >> 32).to(tl.int32)
    j = tl.arange(0, K)
    tl.store(vals_ptr + row * k + j, tl.where(key < 0, key ^ 0x7FFFFFFF, key).to(tl.float32, bitcast=True))
    tl.store(idx_ptr + row * k + j, (top & 0xFFFFFFFF).to(tl.int32) * -1 + LOW)


def solve(x: torch.Tensor, vals: torch.Tensor, idx: torch.Tensor, b: int, v: int, k: int):
    # One chunk per row, at most 4096 wide: this sample is about the store, and its first
    # failure is the smallest case's. (A whole 262 147-wide row in one tl.topk took Triton
    # longer than the compile limit on an H100.) Longer rows are read only in part.
    # K >= 2: tl.topk's k = 1 (a 0-d result) is not handled alike by every Triton version.
    K = max(2, triton.next_power_of_2(k))
    topk_kernel[(b,)](x, vals, idx, v, k, C=max(K, min(4096, triton.next_power_of_2(v))), K=K)
