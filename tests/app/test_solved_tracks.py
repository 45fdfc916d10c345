""" "Solved" counts the kernel track for kernel-track code (issue 36): a PyTorch acceptance
unlocks others' PyTorch code, but neither their Triton/CUDA code nor the editorial."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from app.core.config import Settings
from app.main import create_app
from tests.app.conftest import Queue, signup
from tests.class_factories import judged
from tests.conftest import FIXTURE_PROBLEMS

NOW = datetime.now(UTC).replace(microsecond=0)
KERNEL = "def solve(a, b, c, n):\n    pass  # ALICES_TRITON_KERNEL\n"
TORCH = "def solve(a, b, c, n):\n    torch.add(a, b, out=c)  # CAROLS_TORCH_CODE\n"
EDITORIAL = "The EDITORIAL_OF_TOY_ADD explains the kernel."


def test_a_framework_acceptance_unlocks_framework_code_only(
    settings: Settings, queue: Queue, engine: Engine, tmp_path: Path
) -> None:
    problems = tmp_path / "problems"
    shutil.copytree(FIXTURE_PROBLEMS / "toy-add", problems / "toy-add")
    (problems / "toy-add" / "editorial.md").write_text(EDITORIAL)
    s = settings.model_copy(update={"PROBLEMS_DIR": problems})
    with TestClient(create_app(s, enqueue=queue)) as bob:
        signup(bob, "bobby")
        for name in ("alice", "carol"):
            signup(TestClient(bob.app), name)
        alices = judged(engine, "alice", NOW, verdict="wrong_answer", source=KERNEL)
        carols = judged(
            engine, "carol", NOW, verdict="wrong_answer", language="pytorch", source=TORCH
        )
        judged(engine, "bobby", NOW, language="pytorch", source=TORCH)  # bob's torch.add

        assert bob.get(f"/api/v1/submissions/{carols}").json()["source"] == TORCH
        assert bob.get(f"/api/v1/submissions/{alices}").json()["source"] is None
        assert "ALICES_TRITON_KERNEL" not in bob.get(f"/submissions/{alices}").text
        page = bob.get("/problems/toy-add").text
        assert "EDITORIAL_OF_TOY_ADD" not in page
        board = bob.get("/leaderboard/toy-add?track=kernel").text
        assert "Solve the problem" in board or "code →" not in board

        judged(engine, "bobby", NOW, language="triton", source=KERNEL)  # a kernel of his own
        assert bob.get(f"/api/v1/submissions/{alices}").json()["source"] == KERNEL
        assert "EDITORIAL_OF_TOY_ADD" in bob.get("/problems/toy-add").text
