"""The README.md beside a log-in flood record's ``web-load.json`` (as
``records/2026-11-26-2core-login-flood/``): the runs of ``web_load.py flood``."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

TARGET_MS = 200.0


def write_flood_report(
    out: Path, section: str, data: dict[str, Any], command: str, machine: dict[str, Any]
) -> None:
    doc: dict[str, Any] = json.loads(out.read_text()) if out.exists() else {}
    doc["machine"] = machine
    doc["target"] = (
        f"with 150 concurrent bad log-ins running, browsing p99 < {TARGET_MS:.0f} ms on 2 cores"
    )
    data["command"] = command
    data["measured_at"] = datetime.now(UTC).isoformat(timespec="seconds")
    doc[section] = data
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1, default=str) + "\n")
    out.with_name("README.md").write_text(_markdown(doc))


def _markdown(doc: dict[str, Any]) -> str:
    m = doc["machine"]
    lines = [
        "# Log-in flood while a class browses (2026-11-26, issue 18.1)",
        "",
        f"Machine: {m['cores']} cores ({m['cpu']}), {m['memory_gib']} GiB, shared with other work "
        "(other engineers' test runs) during the runs. Server: `kerneldojo serve --no-worker "
        "--workers 2`, ENVIRONMENT=production, PostgreSQL, Redis, one Celery worker "
        "(`kerneldojo worker --queue cpu`, idle). Load: Locust learners as in "
        "`records/2026-11-23-2core-web-load/`; once all are in, `web_load_flood.py` keeps the flood's "
        "wrong log-ins in flight (one process, httpx) to the end. Target: "
        f"{doc['target']}. Produced by `benchmarks/web_load.py flood`; raw figures in the JSON.",
        "",
        "| run | flood | browsing p50 / p95 / p99 / max during the flood | browsing errors | "
        "flood attempts/s: 401 (hashed) / 429 (refused) | flood p50 / p99 | server / PG cores | met? |",
        "|---|---|---|---:|---|---|---|---|",
    ]
    for k, x in doc.items():
        if not isinstance(x, dict) or "steady_state" not in x:
            continue
        st, f = x["steady_state"], x.get("flood") or {}
        sts = f.get("statuses", {})
        secs = f.get("seconds") or 1
        met = st["p99_ms"] < TARGET_MS
        lines.append(
            f"| {k} | {f.get('concurrency', 0)} from {f.get('from', '-')} | {st['p50_ms']} / "
            f"{st['p95_ms']} / {st['p99_ms']} / {st['max_ms']} ms | {st['errors']} of "
            f"{st['requests']} | {round(sts.get('401', 0) / secs, 1)} / "
            f"{round(sts.get('429', 0) / secs, 1)} (other: "
            f"{ {s: n for s, n in sts.items() if s not in ('401', '429')} or 0 }) | "
            f"{f.get('p50_ms', '-')} / {f.get('p99_ms', '-')} ms | "
            f"{x['cpu']['server_cores_used']} / {x['cpu']['postgres_cores_used']} | "
            f"{'yes' if met else 'no'} |"
        )
    notes = [f"- {k}: {x['note']}" for k, x in doc.items() if isinstance(x, dict) and x.get("note")]
    if notes:
        lines += ["", "Rows kept from earlier code or runs:", "", *notes]
    lines += ["", "Commands:", ""]
    lines += [
        f"- {k}: `{x['command']}`" for k, x in doc.items() if isinstance(x, dict) and "command" in x
    ]
    lines += [
        "",
        "How it holds: a full hash queue is answered 429 (with `Retry-After`) before the "
        "request body is read; otherwise the throttle is read before any hash (a locked "
        "account, address or device costs one indexed read and a 429); a log-in that passes "
        "waits for the argon2 pool outside the request slots: one hash per core on the "
        "machine (file locks shared by the web processes), at nice 19 so that pages come "
        "first, at most 16 waiting per core and process (`app/main.py` RequestSlots, "
        "`app/login_guard.py`, `app/core/hashpool.py`). Under `--flood-from many` every "
        "attempt names a new account from a new address, so the pool's limit is all that "
        "holds them: log-ins are slow or refused while it lasts (an honest learner's log-in "
        "too, unless retried), and browsing is not. Under `--flood-from one` the address "
        "lock answers after 30 failures. Before these changes (issue 18.1): 40 concurrent "
        "bad log-ins took `/problems` from 5 ms to 1.6 s, 150 to ~24 s.",
        "",
        "Rows named after an earlier design (`flood_many_half_cores_nice10`: one hashing "
        "slot at nice 10, refusals inside the app; `flood_many_queue30_nice19`: a queue of 30 "
        "per core) were measured before the final code; `no_flood*` rows are the same load "
        "without the flood, run back to back with the flood rows, for the machine's own "
        "noise: other engineers' test runs (CPU-interpreter gradings) shared the 2 cores "
        "during every run, so figures move by tens of ms between runs.",
        "",
        "Findings (final code: rows `no_flood`, `flood_many`, `flood_one`): **many addresses: "
        "browsing p99 136 ms during the flood, met** (the same path, unchanged by the later "
        "commits: 133, 192 and 269 ms in other runs; without a flood 49-108 ms). **One "
        "address: 189 ms, met** once an ended lock is tested by one attempt at a time (before: "
        "217-237 ms in three runs: at each lock's end the 150 attempts in flight passed "
        "together into the hash queue). About 97% of flood attempts were answered 429 without "
        "a hash. In every run the two load generators (Locust and the flooder, ~0.3 and "
        "~0.3-0.5 of a core) shared the 2 cores with the server and PostgreSQL, and the "
        "machine was 99% busy during the floods. Honest log-ins: each ramp (140 learners "
        "logging in within 14 s, before the flood) had 19-50 log-ins answered 429 because the "
        "hash queue was full (one argon2 check takes 0.29 s of a core here, so 2 cores check "
        "at most ~7 a second); Locust does not retry, so those learners browsed anonymously "
        "and their `GET /api/v1/submissions (mine)` counted as errors (the browsing errors "
        "above).",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":  # rewrite the README.md from the JSON beside it
    import sys

    path = Path(sys.argv[1])
    path.with_name("README.md").write_text(_markdown(json.loads(path.read_text())))
