"""The element types a problem's tensor arguments may have, and how each is poisoned.

One table for every place that maps a dtype: its size (buffers, guard bands, memory budgets),
its CUDA C type (signatures and starters), whether it is an integer type (checkers), and the
value an output is filled with before every call so that an element the submission never
wrote cannot pass for a right answer.

Poison: floating outputs are filled with NaN, which no finite expected value equals (for fp8
E4M3 that is the byte 0x7F). Not any NaN: a quiet NaN with a payload of its own (``nan_bits``),
which arithmetic does not make (0/0, inf - inf and NaN inputs give the canonical NaN or carry
their own), so a checker can tell an element never written (still these bits) from a NaN the
kernel computed. Integer
outputs cannot hold NaN, so every byte is set to ``0x7F``: 127 for 8-bit types, 2139062143
(``0x7F7F7F7F``) for 32-bit ones, 9187201950435737471 for int64. Those are large positive
values that counts, indices, scans and sums of the curriculum's inputs do not reach, and the
checkers name the value when an output still holds it ("was it written?"). Guard bands
(guards.py) work on raw bytes, so they are the same for every dtype.

Only the standard library here: schema.py imports this, and it runs with nothing installed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

POISON_BYTE = 0x7F


@dataclass(frozen=True)
class DType:
    name: str  # as problem.toml and torch spell it: "uint8"
    c_type: str  # the CUDA C element type of a pointer argument
    itemsize: int  # bytes per element
    integer: bool
    signed: bool = True
    # The bit pattern of a float output's poison: a quiet NaN with a payload (None: any NaN, as
    # fp8 E4M3 has a single one).
    nan_bits: int | None = None

    @property
    def poison_int(self) -> int:
        """The integer every element of an integer output holds before a call (0x7F bytes)."""
        # The top byte is 0x7F, so the value is the same positive number signed or unsigned.
        return int.from_bytes(bytes([POISON_BYTE]) * self.itemsize, "little")

    @property
    def poison_text(self) -> str:
        return "NaN" if not self.integer else f"{self.poison_int} (every byte 0x7F)"


DTYPES: dict[str, DType] = {
    d.name: d
    for d in (
        DType("float32", "float", 4, integer=False, nan_bits=0x7FC0DEAD),
        DType("float16", "half", 2, integer=False, nan_bits=0x7F5A),
        DType("bfloat16", "__nv_bfloat16", 2, integer=False, nan_bits=0x7FDA),
        # OCP fp8 E4M3 ("fn": finite, no infinity; NaN is S.1111.111, so 0x7F poison is NaN too)
        DType("float8_e4m3fn", "__nv_fp8_e4m3", 1, integer=False),
        DType("int8", "signed char", 1, integer=True),
        DType("uint8", "unsigned char", 1, integer=True, signed=False),
        DType("int32", "int", 4, integer=True),
        DType("uint32", "unsigned int", 4, integer=True, signed=False),
        DType("int64", "long long", 8, integer=True),
    )
}


def get(name: str) -> DType:
    return DTYPES[name]


def of_tensor(t: Any) -> DType:
    """The entry for a torch tensor's dtype (``torch.uint32`` → ``DTYPES["uint32"]``)."""
    return DTYPES[str(t.dtype).removeprefix("torch.")]


_BITS_VIEW = {1: "int8", 2: "int16", 4: "int32", 8: "int64"}


def poison(t: Any) -> None:
    """Fill an output tensor with its poison value, in place."""
    import torch

    d = of_tensor(t)
    if d.integer:
        t.fill_(d.poison_int)
    elif d.nan_bits is not None and t.is_contiguous():
        t.view(getattr(torch, _BITS_VIEW[d.itemsize])).fill_(d.nan_bits)
    else:
        t.fill_(float("nan"))


def still_poison(t: Any, index: int) -> bool | None:
    """Whether flat element ``index`` of a float output still holds the poison's own bits: True
    (never written), False (a NaN the kernel made), None (this dtype has a single NaN)."""
    import torch

    d = of_tensor(t)
    if d.integer or d.nan_bits is None:
        return None
    flat = t.detach().reshape(-1)[index : index + 1].contiguous()
    bits = int(flat.view(getattr(torch, _BITS_VIEW[d.itemsize]))[0])
    return bits & ((1 << (8 * d.itemsize)) - 1) == d.nan_bits


def unwritten(t: Any) -> Any:
    """A boolean tensor: where ``t`` still holds its poison value."""
    import torch

    d = of_tensor(t)
    return t == d.poison_int if d.integer else torch.isnan(t)


def checkable(expected: Any, dtype: str) -> Any:
    """A boolean tensor over expected values: where an unwritten output would differ from them
    (finite for floats; not the poison value for integers), so a probe there can tell."""
    import torch

    d = DTYPES[dtype]
    if not d.integer:
        return torch.isfinite(expected)
    return expected.to(torch.int64) != d.poison_int
