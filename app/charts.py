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

from judge.results import PARTS, STAGES

C_RUN, C_BEST, C_SOL, C_GRID, C_TEXT, C_MUTED = (
    "#7c9cff",
    "#c084fc",
    "#34d399",
    "#2a3344",
    "#e6e9ef",
    "#8b95a7",
)
C_FAIL = "#f87171"
C_WARN = "#fbbf24"  # not_run: compiled without a GPU to run it, neither passed nor failed
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
    w, row_h, left, right = 500, 22, 110, 70
    series = [
        ("this run", C_RUN, "median_ms"),
        ("torch baseline", "#fbbf24", "baseline_ms"),
        ("best on board", C_BEST, "best"),
        ("speed of light", C_SOL, "sol_ms"),
    ]
    groups: list[tuple[str, list[tuple[str, str, float]]]] = []
    for b in bench:
        vals = {
            "median_ms": b.get("median_ms"),
            "best": best.get(b["name"]),
            "baseline_ms": b.get("baseline_ms"),
            "sol_ms": b.get("sol_ms"),
        }
        groups.append((b["name"], [(n, c, float(v)) for n, c, k in series if (v := vals[k])]))
    h = 40 + sum(len(g[1]) * row_h + 18 for g in groups)
    present = {name for _, bars in groups for name, _, _ in bars}
    body = [_legend([x for x in series if x[0] in present], 8)]
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
    w, h, pad = 500, 300, 56
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
    body.append(
        f'<g transform="translate({w - 260}, 0)">'
        + _legend([("this run", C_RUN, ""), ("roofline (measured)", C_SOL, "")], 0)
        + "</g>"
    )
    return _svg(w, h, body, "roofline")


def history_chart(
    points: Sequence[tuple[int, str | None, float | None]],
    current: int | None,
    label: str = "your submissions on this problem",
) -> Markup | None:
    """points: (submission id, verdict, score_ms), oldest first. Faster is higher up; a
    submission without a score (failed, or judged on the CPU) sits on its verdict's row.
    ``label`` names whose they are (the page's viewer may not be their author)."""
    if not points:
        return None
    w, h, left, right, top = 1000, 170, 92, 24, 26
    bottom = h - 34
    scored = [s for _, v, s in points if v == "accepted" and s]
    n = len(points)

    def px(i: int) -> float:
        return left + (w - left - right) * (i / (n - 1) if n > 1 else 0.5)

    body = [
        f'<line x1="{left}" x2="{w - right}" y1="{bottom}" y2="{bottom}" stroke="{C_GRID}"/>',
        f'<text x="{left}" y="14" fill="{C_MUTED}" font-size="11">'
        + (
            "score (geometric mean of benchmark medians) — faster is higher"
            if scored
            else "verdict"
        )
        + "</text>",
    ]
    lo = hi = 0.0
    fail_y = bottom - 8 if scored else bottom - 14
    ok_y = top + (bottom - top) * 0.3
    # A not_run (CUDA compiled on a server without a GPU) failed nothing: its own amber row
    # between the two, not the failures' red one.
    not_run = any(v == "not_run" for _, v, _ in points)
    nr_y = (ok_y + fail_y) / 2 if not scored else fail_y - 11  # under the slowest score
    if scored:
        lo, hi = min(scored), max(scored)
        pad = (hi - lo) * 0.12 or hi * 0.1
        lo, hi = max(0.0, lo - pad), hi + pad
        body.append(
            f'<text x="{left - 10}" y="{top + 4}" fill="{C_MUTED}" font-size="11" text-anchor="end">{_ms(lo)}</text>'
            f'<text x="{left - 10}" y="{bottom - 26}" fill="{C_MUTED}" font-size="11" text-anchor="end">{_ms(hi)}</text>'
            f'<text x="{left - 10}" y="{fail_y + 4}" fill="{C_FAIL}" font-size="11" text-anchor="end">failed</text>'
        )

    def y_of(v: str | None, s: float | None) -> float:
        if v == "accepted" and s and scored:
            return top + (bottom - 30 - top) * (s - lo) / (hi - lo)
        if v == "not_run":
            return nr_y
        return ok_y if v == "accepted" else fail_y

    def color(v: str | None) -> str:
        return C_SOL if v == "accepted" else C_WARN if v == "not_run" else C_FAIL

    if not scored:
        body.append(
            f'<text x="{left - 10}" y="{ok_y + 4:.1f}" fill="{C_SOL}" font-size="11" text-anchor="end">accepted</text>'
            f'<text x="{left - 10}" y="{fail_y + 4:.1f}" fill="{C_FAIL}" font-size="11" text-anchor="end">not accepted</text>'
            f'<line x1="{left}" x2="{w - right}" y1="{ok_y:.1f}" y2="{ok_y:.1f}" stroke="{C_GRID}" stroke-dasharray="3 4"/>'
            f'<line x1="{left}" x2="{w - right}" y1="{fail_y:.1f}" y2="{fail_y:.1f}" stroke="{C_GRID}" stroke-dasharray="3 4"/>'
        )
    if not_run:
        body.append(
            f'<text x="{left - 10}" y="{nr_y + 4:.1f}" fill="{C_WARN}" font-size="11" text-anchor="end">not run</text>'
            f'<line x1="{left}" x2="{w - right}" y1="{nr_y:.1f}" y2="{nr_y:.1f}" stroke="{C_GRID}" stroke-dasharray="3 4"/>'
        )
    line = [f"{px(i):.1f},{y_of(v, s):.1f}" for i, (_, v, s) in enumerate(points)]
    if n > 1:
        body.append(
            f'<polyline points="{" ".join(line)}" fill="none" stroke="{C_RUN}" stroke-opacity="0.6" stroke-width="2"/>'
        )
    for i, (sid, v, s) in enumerate(points):
        ok = v == "accepted"
        is_cur = sid == current
        label = _ms(s) if ok and s else (v or "").replace("_", " ")
        body.append(
            f'<a href="/submissions/{sid}"><circle cx="{px(i):.1f}" cy="{y_of(v, s):.1f}" r="{8 if is_cur else 5.5}" '
            f'fill="{color(v)}" stroke="{"#fff" if is_cur else "#0b1020"}" stroke-width="2">'
            f"<title>#{sid}: {escape(label)}</title></circle></a>"
            f'<text x="{px(i):.1f}" y="{h - 12}" fill="{C_TEXT if is_cur else C_MUTED}" font-size="11" '
            f'text-anchor="middle">#{sid}</text>'
        )
    return _svg(w, h, body, label)


def phases_chart(phases: dict[str, float]) -> Markup | None:
    """Where the grading's wall time went (sandbox start, compile, tests, benchmark), stacked:
    the stages only (judge/results.py's STAGES), each part inside one (tests_make, first_launch,
    ...) named in its stage's tooltip rather than added again, and counts and flags left out:
    adding every key counted the tests twice (tests and tests_make, ...)."""
    items = [(k, float(phases[k])) for k in STAGES if phases.get(k, 0) > 0]
    if not items:
        return None
    total = sum(v for _, v in items)
    w, x = 460, 0.0
    palette = [C_RUN, C_BEST, C_SOL, "#fbbf24", "#60a5fa", "#f472b6"]
    body = []
    for i, (k, v) in enumerate(items):
        bw = (w - 2) * v / total
        color = palette[i % len(palette)]
        parts = [(p, phases[p]) for p in PARTS.get(k, ()) if phases.get(p, 0) > 0]
        detail = "".join(f"; {p.replace('_', ' ')} {t:.2f} s" for p, t in parts)
        body.append(
            f'<rect x="{x:.1f}" y="4" width="{max(bw - 2, 1):.1f}" height="22" rx="4" fill="{color}">'
            f"<title>{escape(k.replace('_', ' '))}: {v:.2f} s{escape(detail)}</title></rect>"
        )
        if bw > 70:
            body.append(
                f'<text x="{x + 8:.1f}" y="19" fill="#0b1020" font-size="11" font-weight="700">{v:.1f} s</text>'
            )
        x += bw
    # The legend wraps onto as many rows as it needs: on one row, the last (often the largest)
    # phases fell outside the chart and went unlabelled.
    lx, ly = 0.0, 42
    for i, (k, v) in enumerate(items):
        label = f"{k.replace('_', ' ')} {v:.2f} s"
        width = 24 + 6.5 * len(label)
        if lx and lx + width > w:
            lx, ly = 0.0, ly + 18
        body.append(
            f'<rect x="{lx:.0f}" y="{ly}" width="10" height="10" rx="2" fill="{palette[i % len(palette)]}"/>'
            f'<text x="{lx + 15:.0f}" y="{ly + 9}" fill="{C_MUTED}" font-size="11">{escape(label)}</text>'
        )
        lx += width
    return _svg(w, ly + 16, body, f"grading took {total:.1f} s")
