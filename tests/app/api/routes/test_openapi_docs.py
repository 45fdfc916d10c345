"""Every operation of the JSON API says what it does in the OpenAPI docs (#37, item 11: the
Swagger page listed bare names such as "Overall" and "Me", with no description)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient


def _operations(client: TestClient) -> list[tuple[str, str, dict[str, Any]]]:
    schema = client.get("/api/v1/openapi.json").json()
    return [
        (method.upper(), path, op)
        for path, ops in schema["paths"].items()
        if path.startswith("/api/v1/")
        for method, op in ops.items()
    ]


def test_every_api_operation_has_a_summary_and_a_description(client: TestClient) -> None:
    ops = _operations(client)
    assert len(ops) > 30
    bare = [
        f"{method} {path}"
        for method, path, op in ops
        if not (op.get("summary", "").strip() and op.get("description", "").strip())
    ]
    assert not bare, "operations without a description:\n" + "\n".join(bare)


@pytest.mark.parametrize(
    ("method", "path", "summary"),
    [
        ("GET", "/api/v1/auth/me", "The logged-in user"),
        ("GET", "/api/v1/leaderboard", "Overall leaderboard"),
        ("POST", "/api/v1/classes", "Create a class"),
    ],
)
def test_a_bare_function_name_is_not_the_summary(
    client: TestClient, method: str, path: str, summary: str
) -> None:
    ops = {(m, p): op for m, p, op in _operations(client)}
    assert ops[(method, path)]["summary"] == summary
