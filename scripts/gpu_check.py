#!/usr/bin/env python3
"""Every GPU check in one call: sample solutions, adversarial submissions, benchmarks.

Run on a host with an NVIDIA GPU, torch (CUDA build), triton, numpy and nvcc. The versions
the class server's GPU image uses are pinned in requirements/worker-gpu.txt (torch, Triton and
nvcc, all from PyPI); on a bare GPU host, the same set:

    python3 -m venv .venv-gpu && .venv-gpu/bin/pip install -r requirements/worker-gpu.txt -e '.[judge]'
    PATH="$(.venv-gpu/bin/python -c 'import nvidia, os; print(os.path.join(nvidia.__path__[0], "cu13", "bin"))'):$PATH" \
        .venv-gpu/bin/python scripts/gpu_check.py --phase samples

(the wheel's toolkit wants a ``lib64`` beside its ``lib``: ``ln -s lib .../nvidia/cu13/lib64``,
as the Dockerfile does, or linking fails with "cannot find -lcudart_static").

    python3 scripts/gpu_check.py                   # everything
    python3 scripts/gpu_check.py --phase samples   # grade every sample, compare verdicts
    python3 scripts/gpu_check.py --phase bench     # accepted samples benchmarked twice + torch baselines
    python3 scripts/gpu_check.py --phase sandbox   # the same solutions timed with the sandbox off
    python3 scripts/gpu_check.py --phase adversarial
    python3 scripts/gpu_check.py --phase fidelity  # benchmarks/fidelity.py: 3 softmax samples graded 10 times
    python3 scripts/gpu_check.py --phase latency   # benchmarks/latency.py: submit-to-verdict on a warm pool
    python3 scripts/gpu_check.py --phase profile   # benchmarks/profile_latency.py: profile and
                                                   # sanitize latency, ncu's DRAM GB/s, hints
    python3 scripts/gpu_check.py --phase class     # class mode's speed grading (scripts/gpu_class.py;
                                                   # not in the default run: needs the web packages)

It prints one table per phase and writes results (JSON and Markdown) to --out, the run's record
(default: records/<UTC date>-<GPU kind>/, e.g. records/2026-11-26-h100/; records/README.md says
what to add). Exit status 1 if any verdict differs from what is declared.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import logging
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from gpu_class import COLUMNS, PROBLEMS, phase_class  # noqa: E402

from judge import grader  # noqa: E402
from judge.device import gpu_kind  # noqa: E402
from judge.problem import loader  # noqa: E402
from judge.timing import measure  # noqa: E402
from judge.verdicts import Verdict  # noqa: E402


def default_out() -> Path:
    """This run's record: records/<UTC date>-<GPU kind>/ (records/README.md, "Naming")."""
    day = dt.datetime.now(dt.UTC).date().isoformat()
    kind = gpu_kind()
    machine = f"{os.cpu_count() or 1}core" if kind == "cpu" else kind
    return REPO / "records" / f"{day}-{machine}"


def env_info() -> dict[str, Any]:
    import torch
    import triton

    nvcc = shutil.which("nvcc")
    nvcc_v = (
        subprocess.run([nvcc, "--version"], capture_output=True, text=True)
        .stdout.strip()
        .splitlines()[-1]
        if nvcc
        else None
    )
    smi = subprocess.run(
        ["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    return {
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "gpu": torch.cuda.get_device_name(),
        "nvidia_smi": smi,
        "torch": torch.__version__,
        "triton": triton.__version__,
        "nvcc": nvcc_v,
        "python": platform.python_version(),
        "sandbox": os.environ.get("KERNELDOJO_SANDBOX", "bwrap"),
        "ceilings": {
            "copy_GBps": round(measure.ceiling("copy") / 1e9, 1),
            "tf32_TFLOPs": round(measure.ceiling("tf32") / 1e12, 1),
            "fp16_TFLOPs": round(measure.ceiling("fp16") / 1e12, 1),
            "bf16_TFLOPs": round(measure.ceiling("bf16") / 1e12, 1),
            "int8_TOPs": round(measure.ceiling("int8") / 1e12, 1),
            "fp8_TFLOPs": round(measure.ceiling("fp8") / 1e12, 1),
        },
    }


class Rows(list):  # type: ignore[type-arg]
    """Rows of one phase, written to OUT/<phase>.jsonl as they come (a timeout loses nothing)."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        path.write_text("")

    def append(self, row: Any) -> None:
        super().append(row)
        with self.path.open("a") as f:
            f.write(json.dumps(row) + "\n")


OUT = Path(".")


def table(rows: list[dict[str, Any]], cols: list[str]) -> str:
    widths = {
        c: max(len(c), *(len(str(r.get(c, ""))) for r in rows)) if rows else len(c) for c in cols
    }
    line = "| " + " | ".join(c.ljust(widths[c]) for c in cols) + " |"
    sep = "|" + "|".join("-" * (widths[c] + 2) for c in cols) + "|"
    body = [
        "| " + " | ".join(str(r.get(c, "")).ljust(widths[c]) for c in cols) + " |" for r in rows
    ]
    return "\n".join([line, sep, *body])


POOL: Any = None


def grade_file(
    p: Any, path: Path, language: str, mode: str, pooled: bool = True
) -> tuple[Any, float]:
    global POOL
    if pooled and POOL is None:
        from judge.sandbox.runner_client import RunnerPool

        POOL = RunnerPool("cuda")
    t0 = time.monotonic()
    res = grader.grade(
        p, path.read_text(), language, device="cuda", mode=mode, pool=POOL if pooled else None
    )
    return res, time.monotonic() - t0


def phase_samples(probs: list[Any]) -> tuple[list[dict[str, Any]], int]:
    rows, bad = Rows(OUT / "samples.jsonl"), 0
    for p in probs:
        for s in p.samples:
            mode = "run"  # correctness here; the bench phase times the accepted ones
            res, secs = grade_file(p, s.path, s.language, mode)
            # A declared message (header line expect-message: ...) must be in the result's.
            verdict_ok = res.verdict == s.expected
            ok = verdict_ok and s.message_ok(res.message)
            bad += not ok
            note = "" if verdict_ok else res.message
            if verdict_ok and not ok:
                note = f"message lacks {s.expected_message!r}; got: {res.message}"
            rows.append(
                {
                    "problem": p.slug,
                    "sample": f"{s.path.parent.name}/{s.path.name}",
                    "expected": str(s.expected),
                    "got": str(res.verdict),
                    "ok": "yes" if ok else "NO",
                    "s": f"{secs:.1f}",
                    "note": note.replace("\n", " ")[:240],
                }
            )
            print(
                f"{p.slug}/{s.path.name}: {res.verdict} ({'ok' if ok else 'MISMATCH'}) {secs:.1f}s"
                + ("" if ok else f": {note[:240]}"),
                flush=True,
            )
    return rows, bad


def bench_baseline(p: Any, case: Any) -> float | None:
    """Median ms of reference.baseline under the judge's protocol (judge/timing/baseline.py)."""
    from judge.timing import baseline

    return baseline.time_baseline(p, case)


def accepted(p: Any) -> list[Any]:
    return [s for s in p.samples if s.expected == Verdict.ACCEPTED]


def phase_bench(probs: list[Any], repeat: int) -> tuple[list[dict[str, Any]], int]:
    rows, bad = Rows(OUT / "bench.jsonl"), 0
    for p in probs:
        base = {c.name: bench_baseline(p, c) for c in p.benchmarks}
        for s in accepted(p):
            runs = []
            for _ in range(repeat):
                res, secs = grade_file(p, s.path, s.language, "submit")
                runs.append(res)
                print(
                    f"{p.slug}/{s.path.name}: {res.verdict} {secs:.1f}s "
                    + " ".join(
                        f"{b.name}={b.median_ms:.4f}ms"
                        f" (SM {b.clocks.get('sm_ghz_in_calls')} GHz in the calls,"
                        f" {b.clocks.get('sm_ghz_before_calls')} before,"
                        f" {b.clocks.get('clock_waits')} waits)"
                        for b in res.benchmark
                    ),
                    flush=True,
                )
            if any(r.verdict != Verdict.ACCEPTED for r in runs):
                bad += 1
                rows.append(
                    {
                        "problem": p.slug,
                        "sample": s.path.name,
                        "case": "-",
                        "verdict": str(runs[-1].verdict),
                        "note": runs[-1].message[:160],
                    }
                )
                continue
            for i, c in enumerate(p.benchmarks):
                meds = [r.benchmark[i].median_ms for r in runs]
                b = runs[0].benchmark[i]
                diff = (max(meds) - min(meds)) / min(meds) * 100
                rows.append(
                    {
                        "problem": p.slug,
                        "sample": s.path.name,
                        "case": c.name,
                        "verdict": "accepted",
                        "median_ms": " / ".join(f"{m:.4f}" for m in meds),
                        "diff_%": f"{diff:.2f}",
                        "runs": b.runs,
                        "rse_%": b.rse_pct,
                        "GB/s": b.gbps,
                        "TFLOP/s": b.tflops,
                        "SOL_%": b.sol_pct,
                        "torch_ms": f"{base[c.name]:.4f}" if base.get(c.name) else "-",
                        "vs_torch": f"{base[c.name] / b.median_ms:.2f}x"
                        if base.get(c.name)
                        else "-",
                        "wall_ms": b.wall_median_ms,
                        "throttled": b.clocks.get("throttled"),
                        # The SM clock across the timed calls (hold.py), median, per grading,
                        # and the calls that waited for the clock first (clock.py).
                        "GHz_in_calls": " / ".join(
                            str(r.benchmark[i].clocks.get("sm_ghz_in_calls")) for r in runs
                        ),
                        "clock_waits": sum(
                            r.benchmark[i].clocks.get("clock_waits", 0) for r in runs
                        ),
                        # Timed calls whose time came from the referee's floor (measure.py).
                        "ref_calls": " / ".join(str(r.benchmark[i].referee_calls) for r in runs),
                    }
                )
    return rows, bad


def phase_sandbox(probs: list[Any], pairs: int) -> tuple[list[dict[str, Any]], int]:
    """Each accepted sample timed with the sandbox on and off, alternating, ``pairs`` times."""
    rows, bad = Rows(OUT / "sandbox.jsonl"), 0
    for p in probs:
        for s in accepted(p):
            meds: dict[str, list[list[float]]] = {"bwrap": [], "off": []}
            for m in ("bwrap", "off") * pairs:
                os.environ["KERNELDOJO_SANDBOX"] = m
                res, _ = grade_file(p, s.path, s.language, "submit", pooled=False)
                if res.verdict != Verdict.ACCEPTED:
                    bad += 1
                    print(
                        f"{p.slug}/{s.path.name} sandbox={m}: {res.verdict} {res.message[:200]}",
                        flush=True,
                    )
                    break
                meds[m].append([b.median_ms for b in res.benchmark])
            os.environ["KERNELDOJO_SANDBOX"] = "bwrap"
            if not meds["off"] or len(meds["bwrap"]) < pairs:
                continue
            for i, c in enumerate(p.benchmarks):
                on = statistics.median(x[i] for x in meds["bwrap"])
                off = statistics.median(x[i] for x in meds["off"])
                rows.append(
                    {
                        "problem": p.slug,
                        "sample": s.path.name,
                        "case": c.name,
                        "sandbox_ms": f"{on:.4f}",
                        "no_sandbox_ms": f"{off:.4f}",
                        "diff_%": f"{(on - off) / off * 100:+.2f}",
                    }
                )
            print(f"{p.slug}/{s.path.name}: sandbox compared", flush=True)
    return rows, bad


def phase_adversarial() -> tuple[list[dict[str, Any]], int]:
    sys.path.append(str(REPO / "tests"))  # after the repo root: tests/worker must not shadow worker
    try:
        from adversarial.catalog import run_catalog
    except ImportError:
        print("no adversarial suite found", flush=True)
        return [], 0
    rows = Rows(OUT / "adversarial.jsonl")

    def show(row: dict[str, Any]) -> None:  # as it goes: a run cut short keeps what it graded
        rows.append(row)
        flag = "ok" if row["ok"] else ("HOLE" if row["known_hole"] else "FAIL")
        print(
            f"{flag:4} {row['submission']:40} {row['problem']:16} expected={row['expected']} "
            f"got={row['got']} {row.get('seconds', '')}s"
            + (
                f" median {row['median_ms']} honest {row['honest_ms']}"
                if row.get("honest_ms")
                else ""
            ),
            flush=True,
        )

    _, failures = run_catalog(device="cuda", on_row=show)
    return list(rows), failures


def phase_script(
    name: str, script: str, args: list[str], timeout_s: float
) -> tuple[list[dict[str, Any]], int]:
    """A benchmark script of benchmarks/ in its own process (its own runner pool), its JSON kept.

    Targets are reported, not asserted: these phases add no problems to the exit status."""
    if POOL is not None:
        POOL.settle(120)  # none of this script's runners starts a CUDA context meanwhile
    out = OUT / f"{name}.json"
    log = OUT / f"{name}.log"
    cmd = [sys.executable, str(REPO / "benchmarks" / script), *args, "--json", str(out)]
    print(f"{name}: {' '.join(cmd[1:])}", flush=True)
    with log.open("w") as f:
        try:
            subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, timeout=timeout_s, check=False)
        except subprocess.TimeoutExpired:
            print(f"{name}: stopped after {timeout_s:.0f} s (what it measured is kept)", flush=True)
    try:
        data = json.loads(out.read_text())
    except (OSError, ValueError):
        print(f"{name}: no results (see {log})", flush=True)
        return [], 0
    if name == "fidelity":
        flips = data.get("summary", {}).get("rounds_with_a_different_ranking")
        return [dict(r, ranking_flips=flips) for r in data.get("rows", [])], 0
    if name == "profile":  # one row per target of issue #22, the figures behind it in the JSON
        return [{"target": k, "met": v} for k, v in data.get("targets", {}).items()], 0
    summary = data.get("summary") or {}
    if not summary and data.get("results"):  # latency.py: one result per kernel, new sources
        first = data["results"][0]
        summary = dict(first.get("new_sources") or {}, problem=first.get("problem"))
        data["totals"] = (first.get("raw") or {}).get("totals") or []
    med = summary.get("phase_median_s", {})
    return [
        {
            "problem": summary.get("problem"),
            "count": len(data.get("totals", [])),
            "p50_s": summary.get("p50_s"),
            "p95_s": summary.get("p95_s"),
            "calibrate_s": med.get("calibrate"),
            "tests_s": med.get("tests"),
            "first_jit_s": med.get("first_launch"),
            "settle_s": med.get("settle"),
            "benchmark_s": med.get("benchmark"),
        }
    ], 0


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--phase",
        action="append",
        choices=[
            "samples",
            "bench",
            "sandbox",
            "adversarial",
            "fidelity",
            "latency",
            "profile",
            "class",
        ],
    )
    ap.add_argument("--fidelity-rounds", type=int, default=10)
    ap.add_argument("--latency-count", type=int, default=50)
    ap.add_argument(
        "--sandbox-pairs", type=int, default=2, help="gradings with and without the sandbox, each"
    )
    ap.add_argument(
        "--latency-gap", type=float, default=2.0, help="seconds between a verdict and the next"
    )
    ap.add_argument("--script-timeout", type=float, default=600.0, help="seconds per script phase")
    ap.add_argument("--problem", action="append", help="only these problem slugs")
    ap.add_argument("--sample", action="append", help="only samples whose file name contains this")
    ap.add_argument("--language", action="append", help="only samples in this language")
    ap.add_argument(
        "--samples-from",
        type=Path,
        help="only the samples listed in this file, one 'problem/accepted|rejected/file' a line "
        "(what a run cut short did not reach)",
    )
    ap.add_argument(
        "--shard",
        help="K/N: only every N-th sample, starting at the K-th (0-based), so that N processes "
        "grade the samples side by side on one GPU (verdicts only: their times are not alone)",
    )
    ap.add_argument(
        "--repeat", type=int, default=2, help="benchmark runs per accepted sample (stability)"
    )
    ap.add_argument(
        "--out", type=Path, help="the run's folder (default: records/<UTC date>-<GPU kind>/)"
    )
    ap.add_argument(
        "--call-log", type=Path, help="write the referee's log of every timed call to this file"
    )
    ns = ap.parse_args()
    if ns.out is None:
        ns.out = default_out()
    logging.basicConfig(level=logging.WARNING)
    if ns.call_log:
        handler = logging.FileHandler(ns.call_log)
        handler.setLevel(logging.DEBUG)
        logging.getLogger("judge.grader").addHandler(handler)
        logging.getLogger("judge.grader").setLevel(logging.DEBUG)
    phases = ns.phase or [
        "samples",
        "bench",
        "sandbox",
        "adversarial",
        "fidelity",
        "latency",
        "profile",
    ]
    import torch

    if phases == ["class"] and not torch.cuda.is_available():
        phase_class(ns.out)  # says that there is nothing to time here
        return
    report = loader.load_all()
    for e in report.errors:
        print(f"INVALID PROBLEM: {e}")
    probs = [p for p in report.problems if not ns.problem or p.slug in ns.problem]
    for p in probs:
        if p.gpus > 1:  # make test grades them on the CPU; GPU workers answer not_run so far
            print(f"skipped {p.slug}: it spans {p.gpus} GPUs (docs/multi-gpu.md)", flush=True)
    probs = [p for p in probs if p.gpus == 1]
    if ns.sample or ns.language:
        import dataclasses

        def wanted(s: Any) -> bool:
            named = not ns.sample or any(x in s.path.name for x in ns.sample)
            return named and (not ns.language or s.language in ns.language)

        probs = [dataclasses.replace(p, samples=tuple(filter(wanted, p.samples))) for p in probs]
    if ns.samples_from:
        import dataclasses

        listed = {ln.strip() for ln in ns.samples_from.read_text().splitlines() if ln.strip()}
        probs = [
            dataclasses.replace(
                p,
                samples=tuple(
                    s for s in p.samples if f"{p.slug}/{s.path.parent.name}/{s.path.name}" in listed
                ),
            )
            for p in probs
        ]
        probs = [p for p in probs if p.samples]
    if ns.shard:
        import dataclasses

        k, n = (int(x) for x in ns.shard.split("/"))
        order = [(p.slug, s.path) for p in probs for s in p.samples]
        mine = {key for i, key in enumerate(order) if i % n == k}
        probs = [
            dataclasses.replace(p, samples=tuple(s for s in p.samples if (p.slug, s.path) in mine))
            for p in probs
        ]
    info = env_info()
    print(json.dumps(info, indent=1), flush=True)
    ns.out.mkdir(parents=True, exist_ok=True)
    global OUT
    OUT = ns.out
    results: dict[str, Any] = {"env": info}
    md = [
        f"# GPU check: {info['gpu']}, {info['date']}",
        "",
        "```",
        json.dumps(info, indent=1),
        "```",
        "",
    ]
    total_bad = len(report.errors)
    cols = {
        "samples": ["problem", "sample", "expected", "got", "ok", "s", "note"],
        "bench": [
            "problem",
            "sample",
            "case",
            "verdict",
            "median_ms",
            "diff_%",
            "runs",
            "rse_%",
            "GB/s",
            "TFLOP/s",
            "SOL_%",
            "torch_ms",
            "vs_torch",
            "wall_ms",
            "throttled",
            "GHz_in_calls",
            "clock_waits",
        ],
        "sandbox": ["problem", "sample", "case", "sandbox_ms", "no_sandbox_ms", "diff_%"],
        "adversarial": ["submission", "class", "language", "expected", "got", "ok", "note"],
        "fidelity": [
            "sample",
            "case",
            "rounds",
            "mean_ms",
            "min_ms",
            "max_ms",
            "cv_pct",
            "ranking_flips",
        ],
        "class": COLUMNS,
        "profile": ["target", "met"],
        "latency": [
            "problem",
            "count",
            "p50_s",
            "p95_s",
            "calibrate_s",
            "tests_s",
            "first_jit_s",
            "settle_s",
            "benchmark_s",
        ],
    }
    for ph in phases:
        t0 = time.monotonic()
        if ph == "samples":
            rows, bad = phase_samples(probs)
        elif ph == "bench":
            rows, bad = phase_bench(probs, ns.repeat)
        elif ph == "sandbox":
            rows, bad = phase_sandbox(probs, max(1, ns.sandbox_pairs))
        elif ph == "fidelity":
            # Three solutions of clearly different speed (vector-add's fast samples all run at
            # the copy ceiling, 0.3% apart: their order is noise, not a ranking to keep).
            slug = probs[0].slug if ns.problem else "softmax"
            samples = ["cuda_fast.cu", "cuda_simple.cu", "triton_simple.py"]
            args = ["--problem", slug, "--rounds", str(ns.fidelity_rounds)]
            args += [a for s in samples for a in ("--sample", s)]
            rows, bad = phase_script("fidelity", "fidelity.py", args, ns.script_timeout)
        elif ph == "latency":
            slug = probs[0].slug if ns.problem else "vector-add"
            args = ["--problem", slug, "--count", str(ns.latency_count)]
            args += ["--gap", str(ns.latency_gap)]
            rows, bad = phase_script("latency", "latency.py", args, ns.script_timeout)
        elif ph == "profile":
            rows, bad = phase_script("profile", "profile_latency.py", [], ns.script_timeout)
        elif ph == "class":
            rows, bad = phase_class(ns.out, [p.slug for p in probs] if ns.problem else PROBLEMS)
        else:
            rows, bad = phase_adversarial()
        total_bad += bad
        results[ph] = rows
        text = table(rows, cols[ph])
        md += [f"## {ph} ({time.monotonic() - t0:.0f} s, {bad} problem(s))", "", text, ""]
        (ns.out / "gpu-check.json").write_text(json.dumps(results, indent=1))
        (ns.out / "gpu-check.md").write_text("\n".join(md))
    print("\n".join(md[6:]))
    print(f"\n{'ALL OK' if not total_bad else f'{total_bad} PROBLEM(S)'}")
    sys.exit(1 if total_bad else 0)


if __name__ == "__main__":
    main()
