# expect: wrong_answer
# Bug: exp(x - m) is computed in float16 ("the logits are 16-bit anyway"); the sums are float32.
# float16's smallest step is 2^-24 ≈ 6e-8 and it flushes anything below half of that to zero.
# On random logits that changes nothing that matters. On a confident row the whole loss is
# the sum of ~v terms e^-18 ≈ 1.5e-8: float16 rounds them to 0 or 6e-8 and the loss comes out
# off by far more than the tolerance. Exponentiate in float32.
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
        x = tl.load(base + start + cols, mask=start + cols < v, other=float("-inf"))
        m = tl.maximum(m, x.to(tl.float32))
    row_max = tl.max(m, axis=0)
    total = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, v, BLOCK):
        x = tl.load(base + start + cols, mask=start + cols < v, other=float("-inf"))
        e = tl.exp(x.to(tl.float32) - row_max).to(tl.float16)  # the result kept in float16
        total += e.to(tl.float32)
    lse = row_max + tl.log(tl.sum(total, axis=0))
    picked = tl.load(base + tl.load(labels_ptr + row)).to(tl.float32)
    tl.atomic_add(loss_ptr, (lse - picked) / b)


def solve(logits: torch.Tensor, labels: torch.Tensor, loss: torch.Tensor, b: int, v: int):
    loss.zero_()
    cross_entropy_kernel[(b,)](logits, labels, loss, b, v, BLOCK=1024)
