"""``kerneldojo serve`` ends its start-up with one plain line that says where to go (#37, item
11: among uvicorn's and Celery's logs there was no final "KernelDojo is ready at ..." line)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from app.cli import ready_line
from tests.conftest import ROOT, free_port, problems_root


def test_the_line_names_an_address_to_open() -> None:
    assert ready_line("127.0.0.1", 8000) == (
        "KernelDojo is ready at http://127.0.0.1:8000. Ctrl-C stops it."
    )
    assert ready_line("0.0.0.0", 9000).startswith("KernelDojo is ready at http://127.0.0.1:9000 (")
    assert ready_line("::1", 8000).startswith("KernelDojo is ready at http://[::1]:8000.")


def test_serve_says_it_is_ready_once_it_listens(tmp_path: Path) -> None:
    port = free_port()
    env = {
        **os.environ,
        "DATA_DIR": str(tmp_path),
        "KERNELDOJO_GPU_KIND": "cpu",
        "PROBLEMS_DIR": str(problems_root()),
    }
    for k in ("DATABASE_URL", "REDIS_URL", "GPU_KINDS", "PYTHONWARNINGS"):
        env.pop(k, None)
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--no-worker"],
            env=env,
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    line = f"KernelDojo is ready at {url}. Ctrl-C stops it."
    try:
        deadline = time.monotonic() + 60
        while line not in log.read_text():
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        assert httpx.get(f"{url}/problems", timeout=10).status_code == 200  # it does listen
        text = log.read_text()
        assert text.count(line) == 1
        assert text.index("Uvicorn running on") < text.index(line), text
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=30)
