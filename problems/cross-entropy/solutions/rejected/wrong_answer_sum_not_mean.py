# expect: wrong_answer
# Bug: the rows' losses are added up but never divided by b: the sum, not the mean. Right only
# when b = 1.
import torch
import triton
import triton.language as tl


@triton.jit
def cross_entropy_kernel(logits_ptr, labels_ptr, loss_ptr, v, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = logits_ptr + row * v
    cols = tl.arange(0, BLOCK)
    m = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for start in range(0, v, BLOCK):
        x = tl.load(base + start + cols, mask=start + cols < v, other=float("-inf"))
        m = tl.maximum(m, x.to(tl.float32))
    row_max = tl.max(m, axis=0)
    total = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, v, BLOCK):
        x = tl.load(base + start + cols, mask=start + cols < v, other=float("-inf"))
        total += tl.exp(x.to(tl.float32) - row_max)
    lse = row_max + tl.log(tl.sum(total, axis=0))
    picked = tl.load(base + tl.load(labels_ptr + row)).to(tl.float32)
    tl.atomic_add(loss_ptr, lse - picked)


def solve(logits: torch.Tensor, labels: torch.Tensor, loss: torch.Tensor, b: int, v: int):
    loss.zero_()
    cross_entropy_kernel[(b,)](logits, labels, loss, v, BLOCK=1024)
