"""A quiet set-up (issue 23, item 10; issue 37, item 11): ``kerneldojo serve`` starts and stops
on Ctrl-C without warnings or ERROR lines, even with a live-progress stream open, and without
Celery's banner or its shutdown notice; the package metadata builds without setuptools' license
deprecation."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import httpx
from sqlmodel import Session, create_engine

from app.core.security import new_api_token
from app.models import ApiToken, Submission
from tests.conftest import ROOT, free_port, problems_root
from tests.factories import submission

NOISE = ("ERROR", "Traceback", "Warning", "No hostname", "superuser")


def test_ctrl_c_with_a_stream_open_is_quiet(tmp_path: Path) -> None:
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
            [sys.executable, "-m", "app.cli", "serve", "--port", str(port)],
            env=env,
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        # The embedded worker ("ready.") and the web app (uvicorn listening) are up; either
        # may come first.
        while not all(m in log.read_text() for m in ("ready.", "Uvicorn running on")):
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.3)
        engine = create_engine(f"sqlite:///{tmp_path / 'kerneldojo.db'}")
        sub_id = submission(engine, "streamer")  # queued, never sent: its stream stays open
        token, digest = new_api_token()
        with Session(engine) as s:
            sub = s.get(Submission, sub_id)
            assert sub is not None
            s.add(ApiToken(user_id=sub.user_id, name="t", token_hash=digest, prefix=token[:7]))
            s.commit()
        headers = {"Authorization": f"Bearer {token}"}
        with httpx.stream(
            "GET", f"{url}/api/v1/submissions/{sub_id}/events", headers=headers, timeout=30
        ) as r:
            assert r.status_code == 200
            lines = r.iter_lines()
            first = next(lines)
            assert first.startswith("event: progress")
            os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C sends to the terminal's group
            rest = "\n".join(lines)  # the server ends the stream, telling it to poll
        assert "event: timeout" in rest
        proc.wait(30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    text = log.read_text()
    assert "Application shutdown complete" in text and "stopping the worker" in text, text
    assert "did not stop" not in text  # a warm shutdown, not a kill
    noisy = [line for line in text.splitlines() if any(n in line for n in NOISE)]
    assert noisy == [], "\n".join(noisy)
    # Celery's start-up banner and its shutdown notice are gone (#37, item 11: "Warm shutdown"
    # printed beside serve's own line); its logging stays, the worker's "ready." among it.
    for banner in ("[config]", "[queues]", "[tasks]", ".> transport:", "Warm shutdown"):
        assert banner not in text, text
    assert "embedded-cpu@" in text and "ready." in text


def test_license_is_an_spdx_expression() -> None:
    """A TOML table for ``project.license`` is deprecated by setuptools (a warning per build)."""
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert meta["project"]["license"] == "MIT"
    assert any(r.startswith("setuptools>=77") for r in meta["build-system"]["requires"])
