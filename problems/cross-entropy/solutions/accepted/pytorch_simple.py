"""Cross-entropy on the framework track: torch.logsumexp of each row (the row maximum
subtracted) minus the labelled logit, in float32, then the mean over rows, copied into loss.

F.cross_entropy(logits.float(), ...) is the obvious call, but on the CPU its log-softmax loses
the "confident" rows' loss (a sum of ~10^5 terms e^-18 next to the label's 1), off by ~1%:
logsumexp keeps it to float32's precision.

A chunk of rows at a time: the benchmark's logits are 1 GB of bf16, a float32 copy of them 2 GB
and logsumexp's exp(x - max) another 2 GB, past the problem's ~3 GB of scratch memory (all of
it at once was memory_limit_exceeded on an H100). Rows of 2^25 float32 logits (128 MiB, 261
rows of 128256) hold ~260 MiB at a time; each row's loss is as exact as before (float32's
precision), and the mean is still taken once over all b of them."""

import torch

CHUNK_ELEMENTS = 1 << 25  # float32 logits per chunk of rows


def solve(logits: torch.Tensor, labels: torch.Tensor, loss: torch.Tensor, b: int, v: int):
    rows = max(1, CHUNK_ELEMENTS // v)
    per_row = torch.empty(b, dtype=torch.float32, device=logits.device)
    for start in range(0, b, rows):
        x = logits[start : start + rows].float()
        picked = x.gather(1, labels[start : start + rows].long()[:, None]).squeeze(1)
        torch.sub(torch.logsumexp(x, dim=1), picked, out=per_row[start : start + rows])
    loss.copy_(per_row.mean().reshape(1))
