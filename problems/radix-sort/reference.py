"""Stable sort of uint32 keys carrying int32 values: inputs, the exact reference and a baseline.

Keys are made as int32 bit patterns and reinterpreted (``view``) as uint32, so no unsigned
arithmetic is needed on any device; the reference sorts them widened to int64, where the
unsigned order is the ordinary one. Values are random int32 over the whole range, so a value
is (almost surely) told apart from every other: a kernel that writes the sorting permutation,
drops the values or swaps two equal keys' values shows. Kinds of input:
- ``random``: keys uniform on 0 .. 2^32 - 1 (half of them >= 2^31).
- ``few``: keys drawn from 8 distinct values, so every key has ~n/8 equals whose values must
  keep their input order: stability is what this case checks.
- ``equal``: every key the same (drawn per case, >= 2^31): a stable sort leaves both arrays
  exactly as they came.
- ``sorted``: keys already ascending, with repeats.
- ``reversed``: keys descending, with repeats.
- ``sign``: keys within 2^20 of 2^31, half on each side: a kernel comparing keys as signed
  int32 puts the upper half first.
"""

from __future__ import annotations

import torch

HALF = 1 << 31


def _uint32(x: torch.Tensor) -> torch.Tensor:
    """int64 values in 0 .. 2^32 - 1 as a uint32 tensor (through int32 bit patterns)."""
    return torch.where(x >= HALF, x - (1 << 32), x).to(torch.int32).view(torch.uint32)


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """Inputs ``keys`` (uint32) and ``vals`` (int32) of ``n``; every random number comes from
    ``gen``."""
    n = params["n"]

    def ints(lo: int, hi: int, size: int) -> torch.Tensor:  # int64 on lo..hi - 1
        return torch.randint(lo, hi, (size,), generator=gen, device=device, dtype=torch.int64)

    if kind == "random":
        keys = ints(0, 1 << 32, n)
    elif kind == "few":
        keys = ints(0, 1 << 32, 8)[ints(0, 8, n)]
    elif kind == "equal":
        keys = ints(HALF, 1 << 32, 1).expand(n).contiguous()
    elif kind in ("sorted", "reversed"):
        # About two keys per distinct value (ties next to each other), spread over 0 .. 2^32 - 1.
        distinct = max(n // 2, 1)
        keys = torch.sort(ints(0, distinct, n) * (((1 << 32) - 1) // distinct)).values
        keys = keys if kind == "sorted" else keys.flip(0)
    elif kind == "sign":
        keys = ints(HALF - (1 << 20), HALF + (1 << 20), n)
    else:
        raise ValueError(f"unknown kind {kind!r}")
    vals = ints(-HALF, HALF, n).to(torch.int32)
    return {"keys": _uint32(keys), "vals": vals}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """Keys ascending (as unsigned numbers); values in their keys' order, equal keys' values in
    input order (a stable sort), exact in int64."""
    keys = inputs["keys"].view(torch.int32).to(torch.int64) & 0xFFFFFFFF
    order = torch.sort(keys, stable=True).indices
    return {"keys": keys[order], "vals": inputs["vals"].to(torch.int64)[order]}


def baseline(keys: torch.Tensor, vals: torch.Tensor, n: int) -> None:
    """PyTorch's stable sort (CUB's radix sort on the GPU), values gathered by its indices.

    torch.sort has no uint32 kernel on CUDA, so the keys are sorted as int32 with the top bit
    flipped: x XOR 2^31 orders as a signed integer exactly as x does unsigned, and flipping
    again gives the keys back. That costs two elementwise passes (~5% of the sort) rather than
    sorting 8-byte int64 keys, which would double the radix passes."""
    signed = keys.view(torch.int32)
    flip = torch.tensor(-HALF, dtype=torch.int32, device=keys.device)
    ordered, order = torch.sort(signed ^ flip, stable=True)
    vals.copy_(vals[order])
    torch.bitwise_xor(ordered, flip, out=signed)
