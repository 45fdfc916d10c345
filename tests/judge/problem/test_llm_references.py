"""The references of causal-softmax, cross-entropy, top-k and decode-attention against torch's
own operators in float64 on small seeded cases: a reference that drifted from the problem's
definition would otherwise pass every sample it was written alongside."""

from __future__ import annotations

import math
from types import ModuleType

import pytest
import torch
import torch.nn.functional as F

from tests.judge.problem import reference_modules

_module = reference_modules.load


def _inputs(mod: ModuleType, params: dict[str, int], kind: str) -> dict[str, torch.Tensor]:
    return reference_modules.inputs(mod, params, kind, seed=7)


@pytest.mark.parametrize("kind", ["random", "large", "unit_scale"])
def test_causal_softmax_is_sdpa_weights_with_a_causal_mask(kind: str) -> None:
    mod = _module("causal-softmax")
    params = {"b": 2, "h": 2, "s": 9}
    x = _inputs(mod, params, kind)
    y = mod.reference(x, params)["y"].double()
    scores = x["x"].double() * float(x["scale"])
    mask = torch.ones(9, 9, dtype=torch.bool).tril()
    want = torch.softmax(scores.masked_fill(~mask, float("-inf")), dim=-1)
    torch.testing.assert_close(y, want, rtol=1e-6, atol=1e-12)
    assert bool((y.triu(1) == 0).all()) and torch.allclose(
        y.sum(-1), torch.ones(2, 2, 9, dtype=torch.float64)
    )


@pytest.mark.parametrize("kind", ["random", "large", "confident"])
def test_cross_entropy_is_f_cross_entropy_in_float64(kind: str) -> None:
    mod = _module("cross-entropy")
    params = {"b": 5, "v": 300}
    x = _inputs(mod, params, kind)
    got = mod.reference(x, params)["loss"]
    want = F.cross_entropy(x["logits"].double(), x["labels"].long())
    assert got.shape == (1,)
    torch.testing.assert_close(got[0], want, rtol=1e-12, atol=1e-15)


def test_cross_entropy_confident_rows_hold_their_loss_in_tiny_terms() -> None:
    mod = _module("cross-entropy")
    params = {"b": 3, "v": 32771}
    x = _inputs(mod, params, "confident")
    loss = float(mod.reference(x, params)["loss"])
    assert 1e-5 < loss < 1e-2  # ≈ v·e^-17.5: what float16 exp flushes to zero


@pytest.mark.parametrize("kind", ["random", "ties", "ascending", "sparse", "negative", "close"])
def test_top_k_matches_torch_topk_values_and_takes_the_lowest_index_of_ties(kind: str) -> None:
    mod = _module("top-k")
    params = {"b": 4, "v": 257, "k": 17}
    x = _inputs(mod, params, kind)
    out = mod.reference(x, params)
    vals, idx = out["vals"], out["idx"].long()
    assert torch.equal(vals, torch.topk(x["x"], 17, dim=1).values)
    assert torch.equal(x["x"].gather(1, idx), vals)
    same = vals[:, 1:] == vals[:, :-1]
    assert bool((idx[:, 1:][same] > idx[:, :-1][same]).all())  # equal values: ascending index
    assert not bool((x["x"] == 0).logical_and(torch.signbit(x["x"])).any())  # no -0.0


@pytest.mark.parametrize("kind", ["random", "spread", "large_scores"])
def test_decode_attention_is_sdpa_over_each_length_with_gqa(kind: str) -> None:
    mod = _module("decode-attention")
    params = {"b": 4, "hq": 6, "hkv": 2, "L": 37, "d": 64}
    x = _inputs(mod, params, kind)
    o = mod.reference(x, params)["o"]
    lens = x["lens"].long()
    assert int(lens.min()) >= 1 and int(lens.max()) <= 37
    keep = torch.arange(37)[None, :] < lens[:, None]
    want = F.scaled_dot_product_attention(
        x["q"].double()[:, :, None, :],
        x["k"].double(),
        x["v"].double(),
        attn_mask=keep[:, None, None, :],
        enable_gqa=True,
    )[:, :, 0, :]
    torch.testing.assert_close(o, want, rtol=1e-9, atol=1e-12)
    scale = mod.error_scale(x, params, {"o": o})["o"]
    assert bool((scale >= o.abs() - 1e-12).all())


def test_decode_attention_spread_lengths_sum_as_the_roofline_counts() -> None:
    # problem.toml's roofline counts L (b + 1) / 2 positions for the "spread" lengths.
    mod = _module("decode-attention")
    params = {"b": 64, "hq": 1, "hkv": 1, "L": 512, "d": 64}
    lens = _inputs(mod, params, "spread")["lens"].long()
    assert sorted(lens.tolist()) == [math.ceil(512 * (i + 1) / 64) for i in range(64)]
    assert abs(int(lens.sum()) - 512 * 65 / 2) <= 64
