"""The terminal's view of a profile (per-kernel table, roofline, hints) and sanitizer findings.

Reads a result as JSON-shaped dicts (``GradeResult.to_dict``), so ``kerneldojo grade`` and
``kerneldojo submit`` (which gets the result from the API) print them the same way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

out = Console()


def _num(v: Any, fmt: str = "{:.1f}") -> str:
    return fmt.format(v) if isinstance(v, int | float) else ""


def kernel_table(kernels: list[dict[str, Any]]) -> Table:
    t = Table(title="Kernels launched by solve")
    cols = ("kernel", "µs", "DRAM GB/s", "DRAM %", "SM %", "occupancy %", "limiter", "L1 hit %")
    for col in (*cols, "L2 hit %", "top stall"):
        t.add_column(col, justify="left" if col in ("kernel", "limiter", "top stall") else "right")
    for k in kernels:
        stalls = k.get("stalls") or []
        stall = f"{stalls[0]['reason']} {stalls[0]['pct']:.0f}%" if stalls else ""
        occ = _num(k.get("achieved_occupancy_pct"), "{:.0f}")
        if isinstance(cap := k.get("theoretical_occupancy_pct"), int | float):
            occ += f" / {cap:.0f}"
        t.add_row(
            str(k.get("name", "?")).split("(", 1)[0][:40],
            _num(k.get("duration_us"), "{:.2f}"),
            _num(k.get("dram_gbps"), "{:.0f}"),
            _num(k.get("dram_pct")),
            _num(k.get("sm_pct")),
            occ,
            k.get("occupancy_limiter") or "",
            _num(k.get("l1_hit_pct")),
            _num(k.get("l2_hit_pct")),
            stall,
        )
    return t


def render_profile(p: dict[str, Any], report_dir: Path | None = None, said: str = "") -> None:
    """``said``: the result's own message, not repeated."""
    if not p.get("enabled") or not p.get("kernels"):
        why = p.get("message") or "no kernel was profiled"
        if why != said:
            out.print(f"[yellow]profile:[/] {why}", highlight=False)
        return
    out.print(kernel_table(p["kernels"]))
    if r := p.get("roofline"):
        out.print(
            f"roofline: {r['intensity']:.3g} FLOP/byte, {r['achieved_tflops']:.3g} TFLOP/s and "
            f"{r['achieved_gbps']:.0f} GB/s: {r['bound']}-bound, {r['pct_of_roof']:.0f}% of the "
            f"roof (ceilings {r['peak_gbps']:.0f} GB/s, {r['peak_tflops']:.1f} TFLOP/s)",
            highlight=False,
        )
    for i, h in enumerate(p.get("hints") or [], 1):
        where = f" [dim]({h['kernel']})[/]" if h.get("kernel") else ""
        out.print(f"[bold]{i}. {h['title']}[/]{where}", highlight=False)
        out.print(f"   {h['detail']}", markup=False, highlight=False)
    if p.get("report_file") and report_dir is not None:
        out.print(f"report: {report_dir / p['report_file']} (open it in Nsight Compute)")


def render_sanitizer(s: dict[str, Any]) -> None:
    title = f"[bold]{s.get('tool')}[/]" + (f" on {s['case']}" if s.get("case") else "")
    findings = s.get("findings") or []
    if not findings:
        out.print(f"{title}: {s.get('message', '')}", highlight=False)
        return
    errors = s.get("errors") or 0
    more = f" ({errors} in all)" if errors > len(findings) else ""
    out.print(f"{title}: {len(findings)} finding(s){more}", highlight=False)
    for f in findings:
        out.print(f"  [red]•[/] {f.get('message', '')}", highlight=False)


def render_tools(result: dict[str, Any], report_dir: Path | None = None) -> None:
    """The profile and the sanitizer's findings of a result, where it has them."""
    if isinstance(result.get("profile"), dict):
        render_profile(result["profile"], report_dir, str(result.get("message") or ""))
    if isinstance(result.get("sanitizer"), dict):
        render_sanitizer(result["sanitizer"])
