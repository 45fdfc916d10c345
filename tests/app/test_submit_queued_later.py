"""`kerneldojo submit` when the server stored the submission but its queue is unreachable (202):
it says so and follows the submission to its verdict, instead of calling it refused."""

from __future__ import annotations

import json

import httpx
import pytest

from app import submit_client

NOTICE = "Your submission is saved and queued, but the judge's queue is unreachable right now"


def _server(request: httpx.Request) -> httpx.Response:
    sub = {"id": 7, "gpu_kind": "cpu", "problem": "vector-add"}
    if request.method == "POST":
        return httpx.Response(202, json={**sub, "notice": NOTICE})
    if request.url.path.endswith("/events"):
        done = json.dumps({"stage": "done", "verdict": "accepted"})
        return httpx.Response(200, text=f"event: done\ndata: {done}\n\n")
    result = {"message": "", "cases": [{"name": "n = 1", "passed": True, "message": ""}]}
    return httpx.Response(200, json={**sub, "verdict": "accepted", "result": result})


def test_a_202_is_followed_to_its_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    code = submit_client._submit_and_follow(
        "http://judge.test",
        "tok",
        "vector-add",
        "def solve(): pass",
        "triton",
        "run",
        None,
        transport=httpx.MockTransport(_server),
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert "refused" not in out
    assert "queue is unreachable" in out and "#7" in out and "Accepted" in out
