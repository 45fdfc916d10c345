# expect: wrong_answer
# expect-message: 3 x 5003
# Bug: an online softmax that does not rescale. Pass 1 keeps, per lane, a running maximum m
# and a sum s of e^(x - m); when a later chunk raises m, the terms already in s were taken
# against the old maximum and must be multiplied by e^(m_old - m_new). Here they are not, so
# s is too large wherever a lane's maximum grows after its first chunk: rows of at most BLOCK
# = 1024 logits (one chunk) come out right, wider rows do not (on confident rows the error
# hides under the label's e^18; on the large and random ones it does not).
import torch
import triton
import triton.language as tl


@triton.jit
def ce_fwd_bwd_kernel(logits_ptr, labels_ptr, loss_ptr, dlogits_ptr, b, v, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * v
    m = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, v, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(logits_ptr + base + cols, mask=cols < v, other=float("-inf"))
        m_new = tl.maximum(m, x)
        s += tl.where(cols < v, tl.exp(x - m_new), 0.0)  # should be s * e^(m - m_new) + ...
        m = m_new
    row_max = tl.max(m, axis=0)
    total = tl.sum(tl.where(m > float("-inf"), s * tl.exp(m - row_max), 0.0), axis=0)
    label = tl.load(labels_ptr + row)
    for start in range(0, v, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < v
        x = tl.load(logits_ptr + base + cols, mask=mask)
        p = tl.exp(x - row_max) / total
        tl.store(dlogits_ptr + base + cols, (p - tl.where(cols == label, 1.0, 0.0)) / b, mask=mask)
    picked = tl.load(logits_ptr + base + label)
    tl.atomic_add(loss_ptr, (row_max + tl.log(total) - picked) / b)


def solve(logits: torch.Tensor, labels: torch.Tensor, loss: torch.Tensor, dlogits: torch.Tensor, b: int, v: int):
    loss.zero_()
    ce_fwd_bwd_kernel[(b,)](logits, labels, loss, dlogits, b, v, BLOCK=1024)
