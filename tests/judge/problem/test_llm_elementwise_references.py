"""The references of layernorm, rmsnorm-residual, swiglu and rope against torch's own operators
(or the textbook formulation) in float64 on small seeded cases, and the input kinds doing what
each problem.toml says they do: a reference or a kind that drifted from the problem's definition
would otherwise pass every sample written alongside it."""

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


@pytest.mark.parametrize("kind", ["random", "offset", "small"])
def test_layernorm_is_f_layer_norm_in_float64(kind: str) -> None:
    mod = _module("layernorm")
    params = {"m": 5, "n": 333}
    x = _inputs(mod, params, kind)
    assert all(t.dtype == torch.bfloat16 for t in x.values())
    y = mod.reference(x, params)["y"]
    x64, g64, b64 = (x[k].double() for k in ("x", "gamma", "beta"))
    want = F.layer_norm(x64, (333,), g64, b64, 1e-5)
    torch.testing.assert_close(y, want, rtol=1e-12, atol=1e-12)
    scale = mod.error_scale(x, params, {"y": y})["y"]
    assert bool((scale >= y.abs() - 1e-12).all())  # |x̂γ| + |β| bounds |y|
    var = x64.var(dim=1, unbiased=False)
    if kind == "offset":  # mean² / variance large: bf16 centring and E[x²] - E[x]² suffer
        assert bool((x64.mean(dim=1) ** 2 / var > 1e4).all())
    if kind == "small":  # the variance is within a factor of a few of eps
        assert bool(((var > 2e-6) & (var < 5e-5)).all())


@pytest.mark.parametrize("kind", ["random", "outliers", "small"])
def test_rmsnorm_residual_is_the_sum_and_f_rms_norm_in_float64(kind: str) -> None:
    mod = _module("rmsnorm-residual")
    params = {"m": 4, "n": 257}
    x = _inputs(mod, params, kind)
    out = mod.reference(x, params)
    h = x["x"].double() + x["res"].double()
    torch.testing.assert_close(out["res_out"], h, rtol=0, atol=0)
    want = F.rms_norm(h, (257,), x["w"].double(), 1e-6)
    torch.testing.assert_close(out["y"], want, rtol=1e-12, atol=1e-12)
    if kind == "outliers":  # squares past float16's 65504
        assert float(h.abs().max()) ** 2 > 65504
    if kind == "small":
        ms = h.square().mean(dim=1)
        assert bool(((ms > 1e-7) & (ms < 1e-5)).all())


@pytest.mark.parametrize("kind", ["random", "tails"])
def test_swiglu_is_silu_of_gate_times_up_in_float64(kind: str) -> None:
    mod = _module("swiglu")
    params = {"m": 3, "n": 1001}
    x = _inputs(mod, params, kind)
    y = mod.reference(x, params)["y"]
    want = F.silu(x["gate"].double()) * x["up"].double()
    torch.testing.assert_close(y, want, rtol=1e-12, atol=0)
    if kind == "tails":  # gates where a float16 exp(-gate) overflows, outputs still nonzero
        g = x["gate"].double()
        assert float(g.min()) < -19 and math.exp(11.1) > 65504
        assert bool((y[(g < -11.1) & (x["up"].double() != 0)] != 0).all())


def _rotate_half(t: torch.Tensor) -> torch.Tensor:
    half = t.shape[-1] // 2
    return torch.cat([-t[..., half:], t[..., :half]], dim=-1)


@pytest.mark.parametrize("kind", ["random", "large"])
def test_rope_is_the_split_halves_rotation_with_the_given_tables(kind: str) -> None:
    mod = _module("rope")
    params = {"b": 2, "s": 7, "h": 3, "d": 10}
    x = _inputs(mod, params, kind)
    assert x["cos"].shape == (7, 5) and x["cos"].dtype == torch.float32
    theta = 10000.0 ** (-torch.arange(0, 10, 2, dtype=torch.float64) / 10)
    angle = torch.arange(7, dtype=torch.float64)[:, None] * theta
    torch.testing.assert_close(x["cos"].double(), torch.cos(angle), rtol=0, atol=1e-7)
    torch.testing.assert_close(x["sin"].double(), torch.sin(angle), rtol=0, atol=1e-7)
    out = mod.reference(x, params)
    cos = torch.cat([x["cos"], x["cos"]], dim=-1).double()[None, :, None, :]
    sin = torch.cat([x["sin"], x["sin"]], dim=-1).double()[None, :, None, :]
    scale = mod.error_scale(x, params, out)
    for name in ("q", "k"):
        t = x[name].double()
        want = t * cos + _rotate_half(t) * sin  # Hugging Face's apply_rotary_pos_emb
        torch.testing.assert_close(out[name], want, rtol=1e-12, atol=1e-9)
        torch.testing.assert_close(out[name][:, 0], t[:, 0], rtol=0, atol=0)  # angle 0
        assert bool((scale[name] >= out[name].abs() - 1e-9).all())
    if kind == "large":  # some values past float16's largest finite value
        assert float(x["q"].double().abs().max()) > 65504
