"""The library rule (judge/sandbox/rules.py) and fake tensors: a tile DSL's compiler (Helion)
traces the kernel's torch calls on ``FakeTensor``s inside ``solve``; they compute nothing and
pass, while the same call on real tensors is still refused."""

from __future__ import annotations

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

from judge.sandbox import rules


def test_an_op_on_fake_tensors_passes_the_rule() -> None:
    with rules.no_library_compute(), FakeTensorMode() as fake:
        x = fake.from_tensor(torch.ones(4))
        y = torch.exp(x) + x
    assert y.shape == (4,) and type(y).__name__ == "FakeTensor"


def test_the_same_op_on_real_tensors_is_refused() -> None:
    x = torch.ones(4)
    with rules.no_library_compute(), pytest.raises(rules.LibraryComputeError, match="'exp'"):
        torch.exp(x)


def test_a_real_tensor_beside_a_fake_one_is_refused() -> None:
    """Only calls whose every tensor is fake pass: a real one means real data is read."""
    real = torch.ones(4)
    fake = FakeTensorMode().from_tensor(torch.ones(4))
    with rules.no_library_compute(), pytest.raises(rules.LibraryComputeError, match="'add'"):
        torch.ops.aten.add.Tensor(real, fake)


def test_dtype_arithmetic_passes_the_rule() -> None:
    """Helion's lowering of ``torch.addmm`` on tiles asks ``promote_types`` (no tensor at all)."""
    with rules.no_library_compute():
        assert torch.promote_types(torch.float16, torch.float32) == torch.float32
