"""conv2d's sampled reference (problems/conv2d/reference.py, judge/timing/sampled.py): its
values and error scales are the full reference's at the positions it draws, a share of them lies
in the frame where the window meets the padding, and the timed-call check catches outputs botched
in the frame or inside the image."""

from __future__ import annotations

from typing import Any

import pytest
import torch

from judge.problem import loader
from judge.timing import sampled

CPU = torch.device("cpu")


@pytest.fixture(scope="module")
def conv() -> tuple[Any, Any]:
    p = loader.resolve("conv2d")
    return p, loader.load_reference(p)


def _case(conv: tuple[Any, Any], h: int, w: int, r: int, kind: str, seed: int = 5) -> Any:
    p, ref = conv
    params = {"h": h, "w": w, "r": r}
    gen = torch.Generator().manual_seed(seed)
    inputs = loader.call_generate(ref, p, params, kind, gen, CPU)
    return params, inputs, gen


@pytest.mark.parametrize(
    ("h", "w", "r", "kind"),
    [
        (1, 1, 1, "random"),
        (1, 1, 3, "offset"),
        (1, 7, 5, "random"),
        (5, 5, 31, "offset"),  # the filter is larger than the image
        (33, 65, 7, "offset"),
        (70, 40, 9, "random"),
    ],
)
def test_sample_is_the_full_reference_and_scale_at_its_positions(
    conv: tuple[Any, Any], h: int, w: int, r: int, kind: str
) -> None:
    p, ref = conv
    params, inputs, gen = _case(conv, h, w, r, kind)
    full = ref.reference(inputs, params)["y"].reshape(-1)
    scale = ref.error_scale(inputs, params, {"y": full})["y"].reshape(-1)
    s = sampled.make(ref, p, inputs, params, gen)["y"]  # validates indices, dtypes and lengths
    assert s.scale is not None
    assert s.idx.numel() == ref._SAMPLED + (ref._SAMPLED_FRAME if r > 1 else 0)
    assert torch.allclose(s.values, full[s.idx], rtol=1e-12, atol=1e-12)
    assert torch.allclose(s.scale, scale[s.idx], rtol=1e-12, atol=1e-12)
    assert sampled.compare("y", full.float().reshape(h, w), s, p.check)[0]


def test_positions_are_new_with_each_secret_seed(conv: tuple[Any, Any]) -> None:
    p, ref = conv
    params, inputs, _ = _case(conv, 512, 512, 7, "random")
    a = sampled.make(ref, p, inputs, params, torch.Generator().manual_seed(1))["y"].idx
    b = sampled.make(ref, p, inputs, params, torch.Generator().manual_seed(2))["y"].idx
    assert not torch.equal(a, b)
    assert len(set(a.tolist()) & set(b.tolist())) < a.numel() // 10


def _frame(h: int, w: int, p: int) -> torch.Tensor:
    i = torch.arange(h)[:, None]
    j = torch.arange(w)[None, :]
    return (i < p) | (i >= h - p) | (j < p) | (j >= w - p)


def test_a_share_of_the_positions_lies_in_the_frame(conv: tuple[Any, Any]) -> None:
    p, ref = conv
    params, inputs, gen = _case(conv, 1024, 1024, 7, "random")
    s = sampled.make(ref, p, inputs, params, gen)["y"]
    in_frame = _frame(1024, 1024, 3).reshape(-1)[s.idx]
    assert int(in_frame.sum()) >= ref._SAMPLED_FRAME  # plus the uniform ones that land there
    rows, cols = s.idx // 1024, s.idx % 1024
    for side in (rows < 3, rows >= 1021, cols < 3, cols >= 1021):  # every edge is drawn from
        assert int(side.sum()) > ref._SAMPLED_FRAME // 8


@pytest.mark.parametrize("where", ["frame", "inside"])
def test_the_timed_check_catches_a_botched_share_of_the_output(
    conv: tuple[Any, Any], where: str
) -> None:
    """A kernel that skips the padding's effect (the frame computed as if the image went on), or
    botches 2% of the outputs inside, fails the check with every one of several secret seeds."""
    p, ref = conv
    h = w = 256
    params, inputs, _ = _case(conv, h, w, 7, "offset")
    full = ref.reference(inputs, params)["y"].float()
    wrong = full.clone()
    if where == "frame":
        wrong[_frame(h, w, 3)] *= 1.5
    else:
        bad = torch.randperm(h * w, generator=torch.Generator().manual_seed(9))[: h * w // 50]
        wrong.view(-1)[bad] += 1.0
    for seed in range(5):
        s = sampled.make(ref, p, inputs, params, torch.Generator().manual_seed(100 + seed))["y"]
        assert sampled.compare("y", full, s, p.check)[0]
        ok, message, _ = sampled.compare("y", wrong, s, p.check)
        assert not ok and "secret positions" in message
