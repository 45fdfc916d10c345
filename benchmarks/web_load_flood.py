"""The log-in flood of issue 18.1: bad log-ins kept in flight while a class browses.

Run through ``web_load.py flood`` (which seeds, starts the server, a Celery worker and
Locust as ``browse`` does, and starts this file as a separate process once every Locust
user is in). Here: ``--concurrency`` coroutines (httpx, one event loop) each post wrong
passwords to ``POST /api/v1/auth/login`` back to back until ``--seconds`` have passed.

``--from many`` is the hard case, a botnet doing credential stuffing: every attempt names
a new username and comes from a new address (``X-Forwarded-For``, which uvicorn trusts
from 127.0.0.1 as a reverse proxy's), so neither the account nor the address throttle
ever trips and every attempt reaches the hash pool. ``--from one``: one address, the
per-address lock answers. The statuses and latencies are written to ``--out`` (JSON).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from collections import Counter
from typing import Any


async def _attacker(
    c: Any, i: int, spoof: bool, end: float, rows: list[tuple[float, int, float]]
) -> None:
    rng = random.Random(i)
    n = 0
    while time.monotonic() < end:
        n += 1
        headers = {}
        if spoof:
            headers["X-Forwarded-For"] = (
                f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
            )
        body = {"username": f"victim{i:03d}x{n}", "password": f"guess-{rng.random()}"}
        t0 = time.monotonic()
        try:
            r = await c.post("/api/v1/auth/login", json=body, headers=headers)
            code = r.status_code
        except Exception:
            code = 0
        rows.append((t0, code, (time.monotonic() - t0) * 1000))


async def flood(base: str, concurrency: int, seconds: float, spoof: bool) -> dict[str, Any]:
    import httpx

    rows: list[tuple[float, int, float]] = []
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as c:
        end = time.monotonic() + seconds
        await asyncio.gather(*(_attacker(c, i, spoof, end, rows) for i in range(concurrency)))
    ms = sorted(r[2] for r in rows)

    def q(p: float) -> float:
        return round(ms[min(len(ms) - 1, int(p * (len(ms) - 1)))], 1) if ms else float("nan")

    return {
        "concurrency": concurrency,
        "seconds": seconds,
        "from": "many (a new X-Forwarded-For address and username per attempt)"
        if spoof
        else "one address",
        "attempts": len(rows),
        "attempts_per_s": round(len(rows) / seconds, 1),
        "statuses": dict(Counter(str(r[1]) for r in rows)),
        "hashed_per_s": round(sum(1 for r in rows if r[1] == 401) / seconds, 1),
        "p50_ms": q(0.5),
        "p99_ms": q(0.99),
        "max_ms": round(ms[-1], 1) if ms else None,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--base", required=True)
    ap.add_argument("--concurrency", type=int, default=150)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--from", dest="source", choices=["one", "many"], default="many")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    res = asyncio.run(flood(args.base, args.concurrency, args.seconds, args.source == "many"))
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(res, f)


if __name__ == "__main__":
    main()
