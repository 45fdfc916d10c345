"""All-reduce (sum) over ranks: every rank's inputs, the float64 reference, the error scale, and
the torch baseline.

The problem spans GPUs (``gpus`` in problem.toml): ``generate`` is called once per rank, and
``reference`` and ``error_scale`` take and return one dict per rank (docs/problem-format.md).

Kinds of input:
- ``random``: x ~ N(1, 1) on every rank: the sum is of the order of its scale.
- ``mixed``: x ~ 3·N(0, 1) - 1: signs mixed, the ranks' terms cancel in part.
"""

from __future__ import annotations

from typing import Any

import torch


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """One rank's ``x`` of length ``n``; every random number comes from ``gen``."""
    n = params["n"]
    x = torch.randn(n, generator=gen, device=device, dtype=torch.float32)
    if kind == "random":
        x += 1.0
    elif kind == "mixed":
        x = x * 3.0 - 1.0
    else:
        raise ValueError(f"unknown kind {kind!r}")
    return {"x": x}


def reference(
    inputs: list[dict[str, torch.Tensor]], params: dict[str, int]
) -> list[dict[str, torch.Tensor]]:
    """Every rank's y = sum over ranks of x, accumulated in float64."""
    total = torch.stack([d["x"].to(torch.float64) for d in inputs]).sum(dim=0)
    return [{"y": total.clone()} for _ in inputs]


def error_scale(
    inputs: list[dict[str, torch.Tensor]],
    params: dict[str, int],
    expected: list[dict[str, torch.Tensor]],
) -> list[dict[str, torch.Tensor | float]]:
    """rtol is relative to the sum of magnitudes over ranks, which bounds float32 rounding."""
    scale = torch.stack([d["x"].to(torch.float64).abs() for d in inputs]).sum(dim=0)
    return [{"y": scale} for _ in inputs]


def baseline(x: torch.Tensor, y: torch.Tensor, n: int, comm: Any) -> None:
    """The collective a learner is compared with. On GPUs: NCCL's all-reduce through
    torch.distributed, in a process group with one process per rank (``y.copy_(x)``, then
    ``torch.distributed.all_reduce(y)``), timed like a submission. Without a process group (the
    CPU), the same sum read through comm's peer buffers after a barrier."""
    import torch.distributed as dist

    if dist.is_available() and dist.is_initialized():
        y.copy_(x)
        dist.all_reduce(y, op=dist.ReduceOp.SUM)
        return
    comm.barrier()
    torch.sum(torch.stack([comm.peer(r, "x") for r in range(comm.world)]), dim=0, out=y)
