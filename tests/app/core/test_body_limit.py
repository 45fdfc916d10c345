"""Request bodies are capped before they are read, and a submission's body is read only
after its sender is authenticated (issue 18, point 4)."""

from __future__ import annotations

from collections.abc import Iterator

from fastapi.testclient import TestClient

from app.core.config import Settings
from tests.app.conftest import signup

GOOD = "import triton\n\ndef solve(a, b, c, n):\n    pass\n"


def test_the_default_limit_is_a_few_times_the_source_limit() -> None:
    s = Settings(MAX_SOURCE_BYTES=64 * 1024)
    assert 3 * 64 * 1024 < s.max_body_bytes < 8 * 64 * 1024
    assert Settings(MAX_BODY_BYTES=1000).max_body_bytes == 1000


def test_a_declared_oversized_body_is_refused_unread(
    client: TestClient, settings: Settings
) -> None:
    big = b'{"source": "' + b"x" * (settings.max_body_bytes + 1) + b'"}'
    r = client.post(
        "/api/v1/submissions", content=big, headers={"content-type": "application/json"}
    )
    assert r.status_code == 413, r.text
    assert str(settings.max_body_bytes) in r.json()["detail"]
    # Pages too (a log-in form).
    assert client.post("/login", content=big).status_code == 413


def test_an_undeclared_oversized_body_is_cut_off(client: TestClient, settings: Settings) -> None:
    csrf = signup(client)  # authenticated: the body is read, and stops at the limit

    def chunks() -> Iterator[bytes]:
        yield b'{"problem": "toy-add", "language": "triton", "source": "'
        for _ in range(settings.max_body_bytes // 1000 + 2):
            yield b"x" * 1000
        yield b'"}'

    r = client.post(
        "/api/v1/submissions",
        content=chunks(),
        headers={"content-type": "application/json", "X-CSRF-Token": csrf},
    )
    assert r.status_code == 413, r.text


def test_anonymous_submissions_are_refused_before_their_body_is_parsed(
    client: TestClient,
) -> None:
    r = client.post(
        "/api/v1/submissions",
        content=b"{not json at all",
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 401, r.text  # was 422: parsed first


def test_a_bad_body_from_a_learner_is_a_clear_422(client: TestClient) -> None:
    csrf = signup(client)
    h = {"content-type": "application/json", "X-CSRF-Token": csrf}
    r = client.post("/api/v1/submissions", content=b"{not json", headers=h)
    assert r.status_code == 422 and r.json()["detail"][0]["loc"][0] == "body"
    r = client.post("/api/v1/submissions", json={"problem": "toy-add"}, headers=h)
    assert r.status_code == 422 and "source" in r.text
    ok = {"problem": "toy-add", "language": "triton", "source": GOOD}
    assert client.post("/api/v1/submissions", json=ok, headers=h).status_code == 201
    schema = client.get("/api/v1/openapi.json").json()
    body = schema["paths"]["/api/v1/submissions"]["post"]["requestBody"]
    assert "source" in body["content"]["application/json"]["schema"]["properties"]
