"""Small server-side SVG charts for the submission page (no JavaScript, no chart library).

- ``timing_chart``: per benchmark case, this run vs the fastest accepted run on the board and
  the speed-of-light bound (the time the roofline allows on this GPU).
- ``roofline_chart``: achieved TFLOP/s against arithmetic intensity, under the measured roofs.
- ``history_chart``: the learner's score over their ranked submissions on this problem.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any

from markupsafe import Markup

C_RUN, C_BEST, C_SOL, C_GRID, C_TEXT, C_MUTED = (
    "#7c9cff",
    "#c084fc",
    "#34d399",
    "#2a3344",
    "#e6e9ef",
    "#8b95a7",
)
C_FAIL = "#f87171"
FONT = 'font-family="Inter, system-ui, sans-serif"'


def _ms(v: float) -> str:
    return f"{v:.3g} ms" if v >= 1 else f"{v * 1000:.3g} µs"


def _svg(w: int, h: int, body: list[str], label: str) -> Markup:
    return Markup(
        f'<svg class="chart" viewBox="0 0 {w} {h}" width="100%" role="img" '
        f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg" {FONT}>'
        + "".join(body)
        + "</svg>"
    )


def timing_chart(bench: Sequence[dict[str, Any]], best: dict[str, float] | None = None) -> Markup:
    best = best or {}
    w, row_h, left, right = 720, 22, 150, 90
    series = [
        ("this run", C_RUN, "median_ms"),
        ("best on board", C_BEST, "best"),
        ("speed of light", C_SOL, "sol_ms"),
    ]
    groups: list[tuple[str, list[tuple[str, str, float]]]] = []
    for b in bench:
        vals = {
            "median_ms": b.get("median_ms"),
            "best": best.get(b["name"]),
            "sol_ms": b.get("sol_ms"),
        }
        groups.append((b["name"], [(n, c, float(v)) for n, c, k in series if (v := vals[k])]))
    h = 40 + sum(len(g[1]) * row_h + 18 for g in groups)
    body = [_legend(series, 8)]
    y = 40
    for name, bars in groups:
        vmax = max(v for _, _, v in bars)
        body.append(
            f'<text x="0" y="{y + 14}" fill="{C_TEXT}" font-size="13" font-weight="600">{escape(name)}</text>'
        )
        for _label, color, v in bars:
            bw = max(2.0, (w - left - right) * v / vmax)
            body.append(
                f'<rect x="{left}" y="{y + 3}" width="{bw:.1f}" height="{row_h - 7}" rx="3" fill="{color}"/>'
            )
            body.append(
                f'<text x="{left + bw + 6:.1f}" y="{y + 15}" fill="{C_MUTED}" font-size="12">{_ms(v)}</text>'
            )
            y += row_h
        y += 18
    return _svg(w, h, body, "time per benchmark case")


def _legend(series: Sequence[tuple[str, str, str]], y: int) -> str:
    out, x = [], 0
    for name, color, _ in series:
        out.append(
            f'<rect x="{x}" y="{y}" width="12" height="12" rx="2" fill="{color}"/>'
            f'<text x="{x + 18}" y="{y + 11}" fill="{C_MUTED}" font-size="12">{escape(name)}</text>'
        )
        x += 30 + 7 * len(name)
    return "".join(out)


def roofline_chart(bench: Sequence[dict[str, Any]]) -> Markup | None:
    """Log-log roofline. The roofs come from each case's speed-of-light time and its bound."""
    pts, bw_peak, fl_peak = [], 0.0, 0.0
    for b in bench:
        gbps, tflops, med, sol = (
            b.get("gbps") or 0,
            b.get("tflops") or 0,
            b.get("median_ms"),
            b.get("sol_ms"),
        )
        if not (gbps and tflops and med and sol):
            continue
        nbytes, flops = gbps * 1e9 * med / 1e3, tflops * 1e12 * med / 1e3
        ai = flops / nbytes
        if b.get("bound") == "compute":
            fl_peak = max(fl_peak, flops / (sol / 1e3) / 1e12)
        else:
            bw_peak = max(bw_peak, nbytes / (sol / 1e3) / 1e9)
        pts.append((b["name"], ai, tflops))
    if not pts:
        return None
    w, h, pad = 720, 300, 56
    xs = [p[1] for p in pts]
    ys = [p[2] for p in pts]
    x0, x1 = 10 ** math.floor(math.log10(min(xs) / 4)), 10 ** math.ceil(math.log10(max(xs) * 4))
    top = max(ys + ([fl_peak] if fl_peak else []) + ([bw_peak * x1 / 1e3] if bw_peak else []))
    y0, y1 = 10 ** math.floor(math.log10(min(ys) / 4)), 10 ** math.ceil(math.log10(top * 1.5))

    def px(x: float) -> float:
        return pad + (w - pad - 10) * (math.log10(x) - math.log10(x0)) / (
            math.log10(x1) - math.log10(x0)
        )

    def py(y: float) -> float:
        return (
            h
            - pad
            + 20
            - (h - pad) * (math.log10(y) - math.log10(y0)) / (math.log10(y1) - math.log10(y0))
        )

    body = []
    for d in range(round(math.log10(x0)), round(math.log10(x1)) + 1):
        body.append(
            f'<line x1="{px(10**d):.1f}" x2="{px(10**d):.1f}" y1="{py(y1):.1f}" y2="{py(y0):.1f}" stroke="{C_GRID}"/>'
            f'<text x="{px(10**d):.1f}" y="{h - 16}" fill="{C_MUTED}" font-size="11" text-anchor="middle">{10**d:g}</text>'
        )
    for d in range(round(math.log10(y0)), round(math.log10(y1)) + 1):
        body.append(
            f'<line x1="{pad}" x2="{w - 10}" y1="{py(10**d):.1f}" y2="{py(10**d):.1f}" stroke="{C_GRID}"/>'
            f'<text x="{pad - 6}" y="{py(10**d) + 4:.1f}" fill="{C_MUTED}" font-size="11" text-anchor="end">{10**d:g}</text>'
        )
    body.append(
        f'<text x="{w / 2}" y="{h - 2}" fill="{C_MUTED}" font-size="11" text-anchor="middle">arithmetic intensity (FLOP/byte)</text>'
        f'<text x="12" y="{py(y1) - 6:.1f}" fill="{C_MUTED}" font-size="11">TFLOP/s</text>'
    )
    roof = []
    for i in range(61):
        x = 10 ** (math.log10(x0) + i * (math.log10(x1) - math.log10(x0)) / 60)
        cands = ([bw_peak * x / 1e3] if bw_peak else []) + ([fl_peak] if fl_peak else [])
        y = min(cands)
        if y0 <= y <= y1:
            roof.append(f"{px(x):.1f},{py(y):.1f}")
    if roof:
        body.append(
            f'<polyline points="{" ".join(roof)}" fill="none" stroke="{C_SOL}" stroke-width="2.5"/>'
        )
    for name, ai, t in pts:
        body.append(
            f'<circle cx="{px(ai):.1f}" cy="{py(t):.1f}" r="6" fill="{C_RUN}" stroke="#0b1020" stroke-width="1.5"><title>{escape(name)}: {t:.3g} TFLOP/s</title></circle>'
            f'<text x="{px(ai) + 9:.1f}" y="{py(t) + 4:.1f}" fill="{C_TEXT}" font-size="11">{escape(name)}</text>'
        )
    body.append(_legend([("this run", C_RUN, ""), ("roofline (measured peaks)", C_SOL, "")], 0))
    return _svg(w, h, body, "roofline")


def history_chart(
    points: Sequence[tuple[int, str | None, float | None]], current: int | None
) -> Markup | None:
    """points: (submission id, verdict, score_ms) oldest first."""
    if not points:
        return None
    w, h, pad = 720, 180, 44
    scored = [s for _, v, s in points if v == "accepted" and s]
    n = len(points)

    def px(i: int) -> float:
        return pad + (w - pad - 20) * (i / max(1, n - 1) if n > 1 else 0.5)

    body = [f'<line x1="{pad}" x2="{w - 10}" y1="{h - 30}" y2="{h - 30}" stroke="{C_GRID}"/>']
    if scored:
        lo, hi = min(scored), max(scored)
        span = (hi - lo) or hi * 0.2 or 1.0
        lo, hi = max(0.0, lo - span * 0.15), hi + span * 0.15

        def py(v: float) -> float:
            return 20 + (h - 60) * (v - lo) / (hi - lo)  # faster is higher up

        line = [
            f"{px(i):.1f},{(h - 30) - py(s) + 20:.1f}"
            for i, (_, v, s) in enumerate(points)
            if v == "accepted" and s
        ]
        body.append(
            f'<polyline points="{" ".join(line)}" fill="none" stroke="{C_RUN}" stroke-width="2"/>'
        )
        body.append(
            f'<text x="{pad}" y="12" fill="{C_MUTED}" font-size="11">score (geometric mean time; higher is faster)</text>'
        )
    for i, (sid, v, s) in enumerate(points):
        ok = v == "accepted"
        y = (
            (h - 30) - (20 + (h - 60) * (s - lo) / (hi - lo)) + 20
            if ok and s and scored
            else h - 44
        )
        r = 7 if sid == current else 5
        color = C_SOL if ok else C_FAIL
        label = _ms(s) if ok and s else (v or "").replace("_", " ")
        body.append(
            f'<a href="/submissions/{sid}"><circle cx="{px(i):.1f}" cy="{y:.1f}" r="{r}" fill="{color}" '
            f'stroke="{"#fff" if sid == current else "#0b1020"}" stroke-width="2"><title>#{sid}: {escape(label)}</title></circle></a>'
            f'<text x="{px(i):.1f}" y="{h - 12}" fill="{C_MUTED}" font-size="11" text-anchor="middle">#{sid}</text>'
        )
    return _svg(w, h, body, "your submissions on this problem")
