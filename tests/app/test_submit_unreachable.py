"""``kerneldojo submit`` without a server to talk to (issue 23, item 4): one line naming the
address and what to check, a non-zero exit, no traceback; the default server follows PORT."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import default_server
from app.submit_client import UNREACHABLE
from tests.conftest import free_port
from tests.samples import VECTOR_ADD

KERNELDOJO = str(Path(sys.executable).parent / "kerneldojo")


def submit(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    sol = tmp_path / "solution.py"
    sol.write_text(VECTOR_ADD)
    full_env = {**os.environ, "KERNELDOJO_TOKEN": "kd_not-checked", **env}
    for k in ("PORT", "HOST", "KERNELDOJO_SERVER"):
        if k not in env:
            full_env.pop(k, None)
    return subprocess.run(
        [KERNELDOJO, "submit", "vector-add", str(sol), *args],
        env=full_env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def one_line(r: subprocess.CompletedProcess[str]) -> str:
    out = (r.stdout + r.stderr).strip()
    assert "Traceback" not in out and len(out.splitlines()) == 1, out
    return out


def test_refused_connection_is_one_line(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    r = submit(tmp_path, "--server", url)
    assert r.returncode == UNREACHABLE != 0
    assert one_line(r) == (
        f"cannot reach {url}: connection refused; is the server running? "
        "set --server or KERNELDOJO_SERVER"
    )


def test_the_default_server_follows_port_and_the_environment(tmp_path: Path) -> None:
    port = free_port()
    r = submit(tmp_path, PORT=str(port))
    assert r.returncode == UNREACHABLE
    assert one_line(r).startswith(f"cannot reach http://127.0.0.1:{port}: connection refused")
    other = free_port()
    r = submit(tmp_path, PORT=str(port), KERNELDOJO_SERVER=f"http://127.0.0.1:{other}")
    assert one_line(r).startswith(f"cannot reach http://127.0.0.1:{other}:")


def test_default_server(monkeypatch: pytest.MonkeyPatch) -> None:
    mp = monkeypatch
    mp.delenv("HOST", raising=False)
    mp.delenv("PORT", raising=False)
    assert default_server() == "http://127.0.0.1:8000"
    mp.setenv("PORT", "9100")
    mp.setenv("HOST", "0.0.0.0")  # a wildcard is reached through the loopback
    assert default_server() == "http://127.0.0.1:9100"
    mp.setenv("HOST", "::1")
    assert default_server() == "http://[::1]:9100"
    mp.setenv("HOST", "10.1.2.3")
    assert default_server() == "http://10.1.2.3:9100"
