"""The submission page's Profile and Sanitizer sections: per-kernel charts (plain SVG, server
side, like app/charts.py), the roofline position and where the raw report is kept.

The worker keeps each ``.ncu-rep`` in ``DATA_DIR/profiles`` (worker/tasks.py): the web app
serves it from there to whoever may see the submission's code. The name comes from the stored
result, so it is checked against the worker's own pattern before it touches the file system.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

from markupsafe import Markup

from app.charts import C_BEST, C_GRID, C_MUTED, C_RUN, C_SOL, C_TEXT, _svg, roofline_chart

REPORT_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,80}-[0-9a-f]{16}\.ncu-rep$")
# One bar per figure, each a percentage of its own ceiling.
_BARS = (
    ("DRAM throughput", "dram_pct", C_RUN),
    ("SM throughput", "sm_pct", C_BEST),
    ("Achieved occupancy", "achieved_occupancy_pct", C_SOL),
    ("L1 hit rate", "l1_hit_pct", "#fbbf24"),
    ("L2 hit rate", "l2_hit_pct", "#f472b6"),
    ("Tensor pipe", "tensor_pct", "#60a5fa"),
)


def report_path(data_dir: Path, name: object) -> Path | None:
    """The kept report named in a result, or None if the name is not the worker's own."""
    if not isinstance(name, str) or not REPORT_NAME.match(name):
        return None
    path = (data_dir / "profiles" / name).resolve()
    return path if path.is_file() else None


def kernel_chart(k: dict[str, Any]) -> Markup:
    """One kernel's figures as bars of 0-100%, with the occupancy ceiling marked."""
    rows = [
        (label, float(v), c) for label, key, c in _BARS if isinstance(v := k.get(key), int | float)
    ]
    w, row_h, left = 460, 24, 150
    h = 14 + row_h * max(1, len(rows))
    body = []
    scale = (w - left - 50) / 100
    for i, (label, v, color) in enumerate(rows):
        y = 8 + i * row_h
        bw = max(2.0, min(100.0, v) * scale)
        body.append(
            f'<text x="0" y="{y + 13}" fill="{C_TEXT}" font-size="12">{escape(label)}</text>'
            f'<rect x="{left}" y="{y + 2}" width="{100 * scale:.1f}" height="{row_h - 8}" rx="3" fill="{C_GRID}"/>'
            f'<rect x="{left}" y="{y + 2}" width="{bw:.1f}" height="{row_h - 8}" rx="3" fill="{color}"/>'
            f'<text x="{left + 100 * scale + 6:.1f}" y="{y + 13}" fill="{C_MUTED}" font-size="12">{v:.0f}%</text>'
        )
        cap = k.get("theoretical_occupancy_pct")
        if label == "Achieved occupancy" and isinstance(cap, int | float):
            x = left + min(100.0, float(cap)) * scale
            body.append(
                f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y}" y2="{y + row_h - 4}" stroke="{C_TEXT}" '
                f'stroke-width="2"><title>at most {float(cap):.0f}% possible</title></line>'
            )
    if not rows:
        body.append(f'<text x="0" y="20" fill="{C_MUTED}" font-size="12">no figure read</text>')
    return _svg(w, h, body, f"figures of {k.get('name', 'a kernel')}")


def roofline(point: dict[str, Any] | None) -> Markup | None:
    """The profiled run on the roofline chart of the benchmark (app/charts.py's): one point."""
    if not point or not point.get("seconds") or not point.get("flops"):
        return None  # no FLOP (a copy, a transpose): no place on a log-scale chart
    ms = float(point["seconds"]) * 1e3
    t_mem = float(point["bytes"]) / (float(point["peak_gbps"]) * 1e9) * 1e3
    t_cmp = float(point["flops"]) / (float(point["peak_tflops"]) * 1e12) * 1e3
    entry = {
        "name": "profiled run",
        "gbps": point["achieved_gbps"],
        "tflops": point["achieved_tflops"],
        "median_ms": ms,
        "sol_ms": max(t_mem, t_cmp),
        "bound": point.get("bound", "memory"),
    }
    return roofline_chart([entry])


def short_name(name: str) -> str:
    base = name.split("(", 1)[0].strip()
    return base if len(base) <= 60 else base[:57] + "..."


def context(result: dict[str, Any], data_dir: Path) -> dict[str, Any]:
    """Template values for the two sections (empty when the result has neither)."""
    profile = result.get("profile")
    out: dict[str, Any] = {"profile": None, "sanitizer": result.get("sanitizer")}
    if not isinstance(profile, dict):
        return out
    kernels: Sequence[dict[str, Any]] = profile.get("kernels") or []
    out["profile"] = profile
    out["profile_charts"] = [kernel_chart(k) for k in kernels]
    out["profile_roofline"] = roofline(profile.get("roofline"))
    out["profile_report"] = report_path(data_dir, profile.get("report_file")) is not None
    return out
