# expect: wrong_answer
# Bug: the chunk loads have no mask, as if v were a multiple of the chunk size. The last chunk
# of each row reads on into the next row's logits (and, from the last row, into whatever lies
# past the end of logits): extra terms in the row's maximum and sum. Right only when v is a
# multiple of BLOCK. The fix: mask=offs < v, other=-inf.
import torch
import triton
import triton.language as tl


@triton.jit
def cross_entropy_kernel(logits_ptr, labels_ptr, loss_ptr, b, v, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = logits_ptr + row * v
    cols = tl.arange(0, BLOCK)
    m = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for start in range(0, v, BLOCK):
        m = tl.maximum(m, tl.load(base + start + cols).to(tl.float32))
    row_max = tl.max(m, axis=0)
    total = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, v, BLOCK):
        total += tl.exp(tl.load(base + start + cols).to(tl.float32) - row_max)
    lse = row_max + tl.log(tl.sum(total, axis=0))
    picked = tl.load(base + tl.load(labels_ptr + row)).to(tl.float32)
    tl.atomic_add(loss_ptr, (lse - picked) / b)


def solve(logits: torch.Tensor, labels: torch.Tensor, loss: torch.Tensor, b: int, v: int):
    loss.zero_()
    cross_entropy_kernel[(b,)](logits, labels, loss, b, v, BLOCK=256)
