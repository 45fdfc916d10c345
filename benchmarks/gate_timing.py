"""How well the referee's gate (judge/timing/gate.py) times a call made in another process.

A parent (the referee's role) and a child process (the runner's role, no sandbox) run the
judge's gated timed call: the child's stream waits for ``go``, runs the work behind the hold and
writes ``done``; the parent brackets it with events in its own context. For each kind of work
it prints the child's own stream time, the parent's bracket, and the bracket less the bracket
of an empty call (the overhead the judge calibrates), per call: the floor the judge reports
when the runner's clock lies (timing.referee_floor).

Kinds: ``empty`` (the calibration), ``va`` (a 2^25 vector add, 130 us on an H100), ``mm``
(TF32 matmul 4096^3), ``fa`` (SDPA fp16 b16 h16 s4096 d64), and three hostile ones: ``side``
(the vector add on a side stream solve never joins), ``early_done`` (``done`` written from a
side stream before the work), ``early_work`` (the vector add launched on a side stream, then
0.5 ms of host time before ``launched``).

    python3 benchmarks/gate_timing.py [--calls 60] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

KINDS = ("empty", "va", "mm", "fa", "side", "early_done", "early_work")


def _work(kind: str, torch: Any, rg: Any, gen: list[int]) -> Any:
    if kind in ("va", "side", "early_done", "early_work"):
        a, b, c = (torch.randn(1 << 25, device="cuda") for _ in range(3))
        side = torch.cuda.Stream()

        def va() -> None:
            if kind == "early_done":
                rg.write_done(side, gen[0])
            if kind in ("side", "early_work"):
                with torch.cuda.stream(side):
                    torch.add(a, b, out=c)
                if kind == "early_work":
                    time.sleep(0.0005)
                return
            torch.add(a, b, out=c)

        return va
    if kind == "mm":
        torch.backends.cuda.matmul.allow_tf32 = True
        x, y = (torch.randn(4096, 4096, device="cuda") for _ in range(2))
        z = torch.empty(4096, 4096, device="cuda")
        return lambda: torch.mm(x, y, out=z)
    if kind == "fa":
        q, k, v = (
            torch.randn(16, 16, 4096, 64, device="cuda", dtype=torch.float16) for _ in range(3)
        )
        f = torch.nn.functional.scaled_dot_product_attention
        return lambda: f(q, k, v)
    return lambda: None


def child() -> None:
    import torch

    from judge.timing.gate import RunnerGate
    from judge.timing.hold import Hold

    torch.zeros(1, device="cuda")
    hold = Hold(torch)
    desc = json.loads(sys.stdin.readline())
    rg = RunnerGate(desc, Path("."))
    gen = [0]
    fns: dict[str, Any] = {}
    out = sys.stdout
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["op"] == "exit":
            break
        kind = msg["kind"]
        if kind not in fns:
            fns[kind] = _work(kind, torch, rg, gen)
            fns[kind]()
            torch.cuda.synchronize()
        gen[0] = msg["g"]

        def launched() -> None:
            out.write('{"op": "launched"}\n')
            out.flush()

        t = hold.time_call(fns[kind], gate=(rg, msg["g"]), launched=launched)
        out.write(json.dumps({"op": "done", "ms": t.stream_ms, "ms_sync": t.device_ms}) + "\n")
        out.flush()


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def parent(calls: int, out_json: str | None) -> None:
    import torch

    from judge.timing.gate import RefereeGate
    from judge.timing.measure import L2Flusher

    torch.zeros(1, device="cuda")
    gate = RefereeGate.shared()
    flusher = L2Flusher.shared()
    proc = subprocess.Popen(
        [sys.executable, __file__, "--child"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(gate.descriptor()) + "\n")
    proc.stdin.flush()
    rows: dict[str, dict[str, Any]] = {}
    for kind in KINDS:
        stream, sync, brackets = [], [], []
        for i in range(calls + 3):
            flusher.flush()
            torch.cuda.synchronize()
            g = gate.next_call()
            proc.stdin.write(json.dumps({"op": "call", "kind": kind, "g": g}) + "\n")
            proc.stdin.flush()
            msg = json.loads(proc.stdout.readline())
            assert msg["op"] == "launched", msg
            gate.launched()
            msg = json.loads(proc.stdout.readline())
            br = gate.finish(10.0)
            if i < 3 or br is None:
                continue
            stream.append(msg["ms"])
            sync.append(msg["ms_sync"])
            brackets.append(br)
        rows[kind] = {"stream": stream, "sync": sync, "bracket": brackets}
    proc.stdin.write('{"op": "exit"}\n')
    proc.stdin.flush()
    proc.wait(10)
    overhead = statistics.median(rows["empty"]["bracket"])
    print(f"{torch.cuda.get_device_name()}; empty-call bracket median {overhead * 1e3:.1f} us")
    print(
        f"{'kind':11} {'stream ms':>10} {'sync ms':>10} {'bracket ms':>11} {'floor ms':>9} "
        f"{'floor/stream':>12} {'(floor-stream) us p5/p50/p95':>30}"
    )
    for kind, r in rows.items():
        floors = [b - overhead for b in r["bracket"]]
        diffs = [(f - s) * 1e3 for f, s in zip(floors, r["stream"], strict=True)]
        sm, fm = statistics.median(r["stream"]), statistics.median(floors)
        r["summary"] = {"stream_ms": sm, "floor_ms": fm, "diff_us": diffs}
        print(
            f"{kind:11} {sm:10.4f} {statistics.median(r['sync']):10.4f} "
            f"{statistics.median(r['bracket']):11.4f} {fm:9.4f} {fm / sm if sm else 0:12.4f} "
            f"{_pct(diffs, 0.05):9.1f} {_pct(diffs, 0.5):9.1f} {_pct(diffs, 0.95):9.1f}"
        )
    if out_json:
        Path(out_json).write_text(json.dumps({"overhead_ms": overhead, "rows": rows}))


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--child", action="store_true")
    p.add_argument("--calls", type=int, default=60)
    p.add_argument("--json")
    ns = p.parse_args()
    if ns.child:
        child()
    else:
        parent(ns.calls, ns.json)


if __name__ == "__main__":
    main()
