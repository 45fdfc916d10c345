"""``close``, the default: every element within a tolerance of the float64 reference.

|got - expected| <= atol + rtol * scale per element, where scale is |expected| unless the
problem's reference.py defines ``error_scale`` (e.g. the sum of magnitudes for a reduction);
optionally also a bound on the relative L2 error of each output as a whole. NaN or Inf where
the answer is finite fails, and where the answer itself is Inf or NaN only the same value passes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from judge.checkers.base import Checker, Option, Outcome, fmt_index, nan_hint

if TYPE_CHECKING:
    from judge.problem.schema import Check


class Close(Checker):
    name: ClassVar[str] = "close"
    rule: ClassVar[str] = "every element within atol + rtol * scale of the exact result"
    options: ClassVar[dict[str, Option]] = {
        "rtol": Option("number", True, "relative tolerance, times the error scale"),
        "atol": Option("number", True, "absolute tolerance"),
        "max_rel_l2": Option("number", False, "bound on ||got - expected|| / ||expected||"),
    }

    def check(
        self, got: dict[str, Any], expected: dict[str, Any], scales: dict[str, Any], spec: Check
    ) -> Outcome:
        worst = 0.0
        for name, g in got.items():
            e = expected[name]
            scale = scales[name] if name in scales else e.abs()
            ok, message, err = compare(name, g, e, scale, spec)
            worst = max(worst, err)
            if not ok:
                return Outcome(False, message, err)
        return Outcome(True, "", worst)


def compare(
    name: str, got: Any, expected: Any, scale: Any, check: Check
) -> tuple[bool, str, float]:
    """(passed, message, max_abs_error) for one output tensor."""
    import torch

    shape = tuple(expected.shape)
    g, e, s = _flat(got, expected, scale)
    finite_e = torch.isfinite(e)
    bad = ~torch.isfinite(g) & finite_e
    n_bad = int(bad.sum())
    if n_bad:
        i = int(torch.nonzero(bad)[0])
        unwritten = nan_hint(got, i) if bool(torch.isnan(g[i])) else ""
        return (
            False,
            (
                f"{name}: {n_bad} of {e.numel()} values are NaN or Inf, first at "
                f"{fmt_index(i, shape)}: expected {float(e[i]):.6g}, got {float(g[i])}{unwritten}"
            ),
            float("inf"),
        )
    # Where the exact result is itself Inf or NaN, only the same value will do.
    odd = ~finite_e & ~((g == e) | (torch.isnan(g) & torch.isnan(e)))
    if bool(odd.any()):
        i = int(torch.nonzero(odd)[0])
        return (
            False,
            (f"{name}: at {fmt_index(i, shape)} expected {float(e[i])}, got {float(g[i]):.6g}"),
            float("inf"),
        )
    err = torch.where(finite_e, (g - e).abs(), torch.zeros_like(g))
    max_err = float(err.max()) if err.numel() else 0.0
    tol = _allowed(s, check)
    viol = err > tol
    n_viol = int(viol.sum())
    if n_viol:
        ratio = torch.where(
            viol,
            err / torch.as_tensor(tol, dtype=torch.float64, device=g.device).expand_as(err),
            torch.zeros_like(err),
        )
        i = int(torch.argmax(ratio))
        t = float(tol) if isinstance(tol, float | int) else float(tol[i])
        return (
            False,
            (
                f"{name}: {n_viol} of {e.numel()} values out of tolerance; worst at "
                f"{fmt_index(i, shape)}: expected {float(e[i]):.7g}, got {float(g[i]):.7g} "
                f"(error {float(err[i]):.3g}, allowed {t:.3g})"
            ),
            max_err,
        )
    if check.max_rel_l2 is not None:
        denom = float(torch.linalg.vector_norm(e))
        rel = (
            float(torch.linalg.vector_norm(g - e)) / denom
            if denom > 0
            else float(torch.linalg.vector_norm(g - e))
        )
        if rel > check.max_rel_l2:
            return (
                False,
                (
                    f"{name}: relative L2 error {rel:.3g} exceeds {check.max_rel_l2:.3g} "
                    "(precision too low overall)"
                ),
                max_err,
            )
    return True, "", max_err


CHECKER = Close()


def _flat(got: Any, expected: Any, scale: Any) -> tuple[Any, Any, Any]:
    """got, expected and the scale (a tensor, or a number) as flat float64 on got's device."""
    import torch

    g = got.detach().to(torch.float64).reshape(-1)
    e = expected.detach().to(torch.float64).reshape(-1).to(g.device)
    if isinstance(scale, float | int):
        return g, e, scale
    return g, e, scale.detach().to(torch.float64).reshape(-1).to(g.device)


def _allowed(s: Any, check: Check) -> Any:
    """The error allowed per element: atol + rtol * |scale|."""
    return check.atol + check.rtol * (s if isinstance(s, float | int) else s.abs())


def tolerance_ratio(got: Any, expected: Any, scale: Any, check: Check) -> float:
    """The worst |got - expected| over the error allowed there, over the finite elements."""
    import torch

    g, e, s = _flat(got, expected, scale)
    allowed = torch.as_tensor(_allowed(s, check), dtype=torch.float64, device=g.device)
    finite = torch.isfinite(e) & torch.isfinite(g)
    ratio = torch.where(finite, (g - e).abs() / allowed.clamp_min(1e-300), torch.zeros_like(e))
    return float(ratio.max()) if ratio.numel() else 0.0
