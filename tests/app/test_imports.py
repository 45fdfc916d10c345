"""The web process must never import torch or triton (only the worker's task does, lazily)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT

CODE = """
import sys
from fastapi.testclient import TestClient
from app.core.config import Settings
from app.main import create_app
import worker.tasks  # the Celery app and task module, as the web process sends tasks
s = Settings(DATA_DIR=sys.argv[1], PROBLEMS_DIR=sys.argv[2])
from app.core.db import migrate
migrate(s.database_url)
with TestClient(create_app(s, enqueue=lambda i, k, m, requeued=False: None)) as c:
    assert c.get("/problems/toy-add").status_code == 200
bad = sorted(m for m in sys.modules if m.split(".")[0] in ("torch", "triton", "numpy"))
print("IMPORTED", bad)
"""


def test_web_process_imports_no_torch(tmp_path: object) -> None:
    r = subprocess.run(
        [sys.executable, "-c", CODE, str(tmp_path), str(ROOT / "tests/fixtures/problems")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert "IMPORTED []" in r.stdout, r.stdout
