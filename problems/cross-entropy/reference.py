"""Cross-entropy of a batch of logits: seeded bf16 inputs, a float64 reference, F.cross_entropy.

Trusted code, run by the referee (docs/problem-format.md). loss = mean over rows i of
logsumexp(logits[i]) - logits[i, labels[i]], from the bf16 logits, in float64.

Kinds of input (logits bfloat16, labels int32 uniform in [0, v)):
- ``random``: logits ~ N(0, 2²), as a language model's logits spread: loss ≈ ln v + 2.
- ``large``: N(0, 2²) + 100 on even rows, - 100 on odd ones. exp() of them overflows (+) or
  underflows to 0 (-) in float32: only a kernel that subtracts the row maximum survives.
- ``confident``: N(0, 1), and the labelled logit 18 above the rest, as from a model that is
  sure and right: the loss of a row is ≈ v·e^-17.5, almost all of it in the terms e^(x - max)
  ≈ e^-18. float32 holds those; float16 flushes everything below 2^-25 ≈ 3e-8 to zero (and
  rounds the rest to multiples of 6e-8), so a kernel that exponentiates in float16 loses a
  good part of the loss.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

_KINDS = ("random", "large", "confident")
# Rows per float64 chunk of the reference: 256 rows of 128256 logits are 263 MB in float64.
_ROWS_PER_CHUNK = 256


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    b, v = params["b"], params["v"]
    if kind not in _KINDS:
        raise ValueError(f"unknown kind {kind!r} (expected one of {_KINDS})")
    x = torch.randn((b, v), generator=gen, device=device, dtype=torch.float32)
    labels = torch.randint(0, v, (b,), generator=gen, device=device, dtype=torch.int64)
    if kind == "random":
        x *= 2.0
    elif kind == "large":
        sign = 1.0 - 2.0 * (torch.arange(b, device=device, dtype=torch.float32) % 2)
        x = x * 2.0 + 100.0 * sign[:, None]
    else:  # confident
        x[torch.arange(b, device=device), labels] += 18.0
    return {"logits": x.to(torch.bfloat16), "labels": labels.to(torch.int32)}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """mean_i(logsumexp(logits_i) - logits_i[labels_i]) in float64, a chunk of rows at a time."""
    logits, labels = inputs["logits"], inputs["labels"].long()
    b = params["b"]
    total = torch.zeros((), dtype=torch.float64, device=logits.device)
    for r0 in range(0, b, _ROWS_PER_CHUNK):
        r1 = min(b, r0 + _ROWS_PER_CHUNK)
        x = logits[r0:r1].double()
        picked = x.gather(1, labels[r0:r1, None]).squeeze(1)
        total += (torch.logsumexp(x, dim=1) - picked).sum()
    return {"loss": (total / b).reshape(1)}


def baseline(
    logits: torch.Tensor, labels: torch.Tensor, loss: torch.Tensor, b: int, v: int
) -> None:
    """PyTorch's cross-entropy as a training loop calls it on bf16 logits (int64 targets; the
    result is a bf16 scalar, copied into the float32 loss)."""
    loss.copy_(F.cross_entropy(logits, labels.long()).reshape(1))
