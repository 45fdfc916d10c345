"""The references of gemm-bf16, gemm-int8, gemm-fp8-blockscaled and causal-gqa-attention against
torch's own operators (or the problem's definition written out) in float64 on small seeded
cases, and each problem's sampled reference against its full one at the positions it picks."""

from __future__ import annotations

import math
from types import ModuleType

import pytest
import torch
import torch.nn.functional as F

from tests.judge.problem import reference_modules

_module = reference_modules.load


def _inputs(mod: ModuleType, params: dict[str, int], kind: str) -> dict[str, torch.Tensor]:
    return reference_modules.inputs(mod, params, kind, seed=11)


def _sample_agrees(mod: ModuleType, x: dict[str, torch.Tensor], params: dict[str, int]) -> None:
    full = mod.reference(x, params)
    scales = mod.error_scale(x, params, full) if hasattr(mod, "error_scale") else {}
    for name, got in mod.reference_sample(x, params, torch.Generator().manual_seed(3)).items():
        idx, vals = got[0], got[1]
        assert torch.allclose(vals, full[name].double().reshape(-1)[idx], rtol=1e-12, atol=1e-12)
        if len(got) > 2:
            want = scales[name].double().reshape(-1)[idx]
            assert torch.allclose(got[2], want, rtol=1e-12, atol=1e-12)


def _bf16_exact(t: torch.Tensor) -> bool:
    return bool(torch.equal(t.double(), t.to(torch.bfloat16).double()))


@pytest.mark.parametrize("kind", ["random", "small_ints", "wide_range"])
def test_gemm_bf16_is_the_float64_product_of_the_bf16_inputs(kind: str) -> None:
    mod = _module("gemm-bf16")
    params = {"m": 37, "n": 21, "k": 45}
    x = _inputs(mod, params, kind)
    assert x["a"].dtype == x["b"].dtype == torch.bfloat16
    want = x["a"].double() @ x["b"].double()
    assert torch.equal(mod.reference(x, params)["c"], want)
    scale = mod.error_scale(x, params, {})["c"]
    assert bool((scale >= want.abs()).all())
    if kind == "small_ints":  # exact in bf16: the tiny shapes test indexing alone
        assert _bf16_exact(want)
    _sample_agrees(mod, x, params)


@pytest.mark.parametrize("kind", ["random", "exact", "extreme"])
def test_gemm_int8_is_the_integer_product_times_both_scales(kind: str) -> None:
    mod = _module("gemm-int8")
    params = {"m": 19, "n": 24, "k": 40}
    x = _inputs(mod, params, kind)
    assert x["a"].dtype == x["b"].dtype == torch.int8 and tuple(x["b"].shape) == (24, 40)
    acc = torch._int_mm(x["a"], x["b"].t()).double()  # int32 sums, exact
    want = acc * x["sa"].double()[:, None] * x["sb"].double()[None, :]
    assert torch.equal(mod.reference(x, params)["c"], want)
    if kind == "extreme":
        assert set(x["a"].unique().tolist()) <= {-128, 127}
    if kind == "exact":
        assert _bf16_exact(want)
    _sample_agrees(mod, x, params)


def _fp8_by_blocks(x: dict[str, torch.Tensor], k: int) -> torch.Tensor:
    """The problem's definition written out: per 128-wide block, the partial sum times its scales."""
    a, b, sa, sb = (x[n].double() for n in ("a", "b", "sa", "sb"))
    cols = torch.arange(b.shape[0]) // 128
    out = torch.zeros(a.shape[0], b.shape[0], dtype=torch.float64)
    for t in range((k + 127) // 128):
        sl = slice(128 * t, min(k, 128 * (t + 1)))
        out += (a[:, sl] @ b[:, sl].T) * sa[:, t][:, None] * sb[cols, t][None, :]
    return out


@pytest.mark.parametrize("kind", ["random", "exact"])
def test_gemm_fp8_is_the_sum_of_scaled_block_partials(kind: str) -> None:
    mod = _module("gemm-fp8-blockscaled")
    params = {"m": 5, "n": 130, "k": 300}  # 3 k blocks (the last partial), 2 row blocks of b
    x = _inputs(mod, params, kind)
    assert x["a"].dtype == x["b"].dtype == torch.float8_e4m3fn
    assert tuple(x["sa"].shape) == (5, 3) and tuple(x["sb"].shape) == (2, 3)
    want = _fp8_by_blocks(x, 300)
    got = mod.reference(x, params)["c"]
    assert torch.allclose(got, want, rtol=1e-12, atol=1e-12)
    if kind == "random":  # quantised as a model is: every block's largest value is e4m3's 448
        assert x["a"].float().abs().reshape(5, -1).amax(1).eq(448).all()
        assert bool((x["sa"] > 0).all() and (x["sb"] > 0).all())
    else:
        assert _bf16_exact(got)
    _sample_agrees(mod, x, params)


@pytest.mark.parametrize("kind", ["random", "large_scores"])
@pytest.mark.parametrize(("hq", "hkv"), [(4, 2), (3, 1), (2, 2)])
def test_causal_gqa_attention_is_sdpa_with_causal_mask_and_gqa(
    kind: str, hq: int, hkv: int
) -> None:
    mod = _module("causal-gqa-attention")
    params = {"b": 2, "hq": hq, "hkv": hkv, "s": 19, "d": 32}
    x = _inputs(mod, params, kind)
    q, k, v = (x[n].double() for n in ("q", "k", "v"))
    want = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    got = mod.reference(x, params)["o"]
    assert torch.allclose(got, want, rtol=1e-10, atol=1e-12)
    scale = mod.error_scale(x, params, {"o": got})["o"]
    assert bool((scale >= got.abs() - 1e-12).all())
    # Chunked (one head and a few rows at a time) or not, the same numbers.
    saved = mod.__dict__["_CHUNK_BYTES"]
    try:
        mod.__dict__["_CHUNK_BYTES"] = 19 * 8 * 3
        assert torch.allclose(mod.reference(x, params)["o"], got, rtol=0, atol=1e-15)
    finally:
        mod.__dict__["_CHUNK_BYTES"] = saved
    _sample_agrees(mod, x, params)


def test_causal_gqa_first_query_sees_only_the_first_key() -> None:
    mod = _module("causal-gqa-attention")
    params = {"b": 1, "hq": 2, "hkv": 1, "s": 5, "d": 32}
    x = _inputs(mod, params, "random")
    o = mod.reference(x, params)["o"]
    assert torch.equal(o[0, :, 0], x["v"][0, 0, 0].double().expand(2, 32))
    assert math.isfinite(float(o.abs().max()))
