"""histogram's reference counts the bytes as they are (no int64 copy): the same exact int64
counts as counting them widened, for every kind of input, bytes >= 128 included."""

from __future__ import annotations

import pytest
import torch

from judge.problem import loader


@pytest.mark.parametrize("kind", ["uniform", "high", "single", "skewed"])
@pytest.mark.parametrize("n", [1, 1000, 65537])
def test_reference_counts_every_byte_value_exactly(kind: str, n: int) -> None:
    p = loader.resolve("histogram")
    ref = loader.load_reference(p)
    gen = torch.Generator().manual_seed(n)
    inputs = loader.call_generate(ref, p, {"n": n}, kind, gen, torch.device("cpu"))
    data = inputs["data"]
    assert data.dtype == torch.uint8
    bins = ref.reference(inputs, {"n": n})["bins"]
    assert bins.dtype == torch.int64 and tuple(bins.shape) == (256,)
    want = torch.zeros(256, dtype=torch.int64)
    want.index_add_(0, data.long(), torch.ones(n, dtype=torch.int64))
    assert torch.equal(bins, want)
    if kind == "high":
        assert int(bins[:128].sum()) == 0 and int(bins.sum()) == n
