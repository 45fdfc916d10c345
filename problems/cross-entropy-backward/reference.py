"""Cross-entropy forward and backward, fused: inputs, the float64 reference, the error scales
and a torch baseline.

    lse_i = log sum_j e^x_ij,   loss = (1/b) sum_i (lse_i - x_i,l_i)
    p_ij = e^(x_ij - lse_i),    dlogits_ij = (p_ij - [j = l_i]) / b

Kinds of input (logits float32, labels int32 uniform in [0, v)), as in the forward problem:
- ``random``: logits ~ N(0, 2²).
- ``large``: N(0, 2²) + 100 on even rows, - 100 on odd ones: e^x overflows or underflows in
  float32, so only a kernel that subtracts the row maximum survives.
- ``confident``: N(0, 1) with the labelled logit 18 above: p ~ e^-18 off the label (float16
  flushes it to 0) and p - 1 at the label cancels to ~ -v·e^-18.
"""

from __future__ import annotations

import torch

_KINDS = ("random", "large", "confident")
# Rows per float64 chunk: 256 rows of 128256 logits are 263 MB in float64.
_ROWS_PER_CHUNK = 256


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """logits (b x v, float32) and labels (b, int32); every random number comes from ``gen``."""
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
    return {"logits": x, "labels": labels.to(torch.int32)}


def _rows(
    inputs: dict[str, torch.Tensor], r0: int, r1: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Rows r0..r1 in float64: the logits, lse (a column) and the one-hot of the labels."""
    x = inputs["logits"][r0:r1].to(torch.float64)
    onehot = torch.zeros_like(x)
    onehot.scatter_(1, inputs["labels"][r0:r1].long()[:, None], 1.0)
    return x, torch.logsumexp(x, dim=1, keepdim=True), onehot


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """The mean loss and its gradient in float64, a chunk of rows at a time."""
    b = params["b"]
    dlogits = torch.empty(
        inputs["logits"].shape, dtype=torch.float64, device=inputs["logits"].device
    )
    total = torch.zeros((), dtype=torch.float64, device=dlogits.device)
    for r0 in range(0, b, _ROWS_PER_CHUNK):
        r1 = min(b, r0 + _ROWS_PER_CHUNK)
        x, lse, onehot = _rows(inputs, r0, r1)
        total += (lse.squeeze(1) - (x * onehot).sum(dim=1)).sum()
        dlogits[r0:r1] = (torch.exp(x - lse) - onehot) / b
    return {"loss": (total / b).reshape(1), "dlogits": dlogits}


def error_scale(
    inputs: dict[str, torch.Tensor], params: dict[str, int], expected: dict[str, torch.Tensor]
) -> dict[str, torch.Tensor | float]:
    """rtol is relative to the size of what each output subtracts (problem.toml): lse and the
    label's logit for the loss, p and the one-hot for dlogits."""
    b = params["b"]
    scale = torch.empty_like(expected["dlogits"])
    total = torch.zeros((), dtype=torch.float64, device=scale.device)
    for r0 in range(0, b, _ROWS_PER_CHUNK):
        r1 = min(b, r0 + _ROWS_PER_CHUNK)
        x, lse, onehot = _rows(inputs, r0, r1)
        total += (lse.abs().squeeze(1) + (x * onehot).sum(dim=1).abs()).sum()
        scale[r0:r1] = (torch.exp(x - lse) + onehot) / b
    return {"loss": (total / b).reshape(1), "dlogits": scale}


def baseline(
    logits: torch.Tensor,
    labels: torch.Tensor,
    loss: torch.Tensor,
    dlogits: torch.Tensor,
    b: int,
    v: int,
) -> None:
    """What a training step runs: F.cross_entropy forward, then its backward (torch's fused
    log-softmax backward kernel). The loss is copied into ``loss``; the gradient stays in the
    tensor autograd allocates (copying it into dlogits would move 8·b·v bytes the kernels do
    not). Timed, never checked."""
    x = logits.detach().requires_grad_(True)
    out = torch.nn.functional.cross_entropy(x, labels.long())
    torch.autograd.grad(out, x)
    loss.copy_(out.detach().reshape(1))
