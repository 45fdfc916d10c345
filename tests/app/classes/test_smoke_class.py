"""The compose smoke test's class steps (scripts/smoke_class.py) against ``kerneldojo serve``:
the same code the container stack runs, with the server's CLI run here instead of in the web
container."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid

import pytest

from tests.conftest import ROOT, LiveServer

pytestmark = pytest.mark.timeout(300)


def test_class_steps_of_the_compose_smoke(
    live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    import smoke_class

    env = {**os.environ, "DATA_DIR": str(live_server.data_dir)}
    env.pop("DATABASE_URL", None)
    admin = (f"boss{uuid.uuid4().hex[:6]}", "smoke-admin-pass-1")
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "app.cli",
            "admin",
            "create",
            "--username",
            admin[0],
            "--password",
            admin[1],
        ],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr

    def export(class_id: int) -> str:
        argv = [sys.executable, "-m", "app.cli", "class", "gradebook", str(class_id), "--csv"]
        out = subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        return out.stdout

    port = int(live_server.url.rsplit(":", 1)[1])
    detail = smoke_class.class_flow(port, admin, export)
    assert "enrolled by the invite code" in detail and ",accepted,,10,no,10,10" in detail

    # A wrong exporter is caught: the step compares the CLI's CSV with the web's.
    with pytest.raises(RuntimeError, match="differs from the web's"):
        smoke_class.class_flow(port, admin, lambda class_id: "student\n")
