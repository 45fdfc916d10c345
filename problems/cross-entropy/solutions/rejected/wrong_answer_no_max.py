# expect: wrong_answer
# Bug: log(Σ exp(x)) is computed as written, without subtracting the row maximum first. Fine
# for logits of a few units; on rows near +100 exp overflows float32 to inf, and on rows near
# -100 every term underflows to 0 and log(0) = -inf.
import torch
import triton
import triton.language as tl


@triton.jit
def cross_entropy_kernel(logits_ptr, labels_ptr, loss_ptr, b, v, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = logits_ptr + row * v
    cols = tl.arange(0, BLOCK)
    total = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, v, BLOCK):
        x = tl.load(base + start + cols, mask=start + cols < v, other=float("-inf"))
        total += tl.exp(x.to(tl.float32))
    lse = tl.log(tl.sum(total, axis=0))
    picked = tl.load(base + tl.load(labels_ptr + row)).to(tl.float32)
    tl.atomic_add(loss_ptr, (lse - picked) / b)


def solve(logits: torch.Tensor, labels: torch.Tensor, loss: torch.Tensor, b: int, v: int):
    loss.zero_()
    cross_entropy_kernel[(b,)](logits, labels, loss, b, v, BLOCK=1024)
