"""A learner on another machine, through the JSON API only (run inside a test's namespace).

``python -m tests.deploy.learner submit URL FILE...``: sign up, make a personal token (a
cookie-authenticated write: it carries the page's CSRF token), submit each file to vector-add;
prints ``{"token": ..., "ids": [...]}``. ``python -m tests.deploy.learner results URL TOKEN
ID...``: prints each submission's ``status``, ``verdict`` and ``attempt`` as the API shows them.
"""

from __future__ import annotations

import json
import re
import sys
import uuid
from pathlib import Path

import httpx

from judge import languages


def _signup(c: httpx.Client) -> str:
    name = f"learner{uuid.uuid4().hex[:6]}"
    r = c.post("/api/v1/auth/signup", json={"username": name, "password": "kernel-dojo-pass"})
    assert r.status_code == 201, r.text
    m = re.search(r'name="csrf-token" content="([^"]+)"', c.get("/problems").text)
    assert m, "no CSRF token on /problems"
    r = c.post("/api/v1/tokens", json={"name": "multihost"}, headers={"X-CSRF-Token": m.group(1)})
    assert r.status_code == 201, r.text
    return str(r.json()["token"])


def submit(url: str, files: list[str]) -> dict[str, object]:
    with httpx.Client(base_url=url, timeout=60) as c:
        token = _signup(c)
    ids = []
    with httpx.Client(
        base_url=url, timeout=60, headers={"Authorization": f"Bearer {token}"}
    ) as api:
        for f in files:
            source = Path(f).read_text(encoding="utf-8")
            lang = languages.infer(Path(f).name, source)
            assert lang is not None, f
            body = {"problem": "vector-add", "language": lang.name, "source": source}
            r = api.post("/api/v1/submissions", json=body)
            assert r.status_code == 201, r.text  # 202 would mean the broker was unreachable
            ids.append(int(r.json()["id"]))
    return {"token": token, "ids": ids}


def results(url: str, token: str, ids: list[int]) -> dict[str, dict[str, object]]:
    out = {}
    with httpx.Client(
        base_url=url, timeout=60, headers={"Authorization": f"Bearer {token}"}
    ) as api:
        for sid in ids:
            r = api.get(f"/api/v1/submissions/{sid}")
            assert r.status_code == 200, r.text
            d = r.json()
            out[str(sid)] = {k: d[k] for k in ("status", "verdict", "attempt")}
    return out


def main(argv: list[str]) -> None:
    cmd, url, *rest = argv
    if cmd == "submit":
        print(json.dumps(submit(url, rest)))
    else:
        print(json.dumps(results(url, rest[0], [int(x) for x in rest[1:]])))


if __name__ == "__main__":
    main(sys.argv[1:])
