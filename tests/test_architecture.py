"""The three rooms and their imports: judge <- app <- worker, and no import circle anywhere.

The contracts live in pyproject.toml ([tool.importlinter]) and are checked by import-linter's
``lint-imports``; the circle check reads the same import graph (grimp, import-linter's own), with
function-local and ``TYPE_CHECKING`` imports counted: a circle hidden inside a function is still
a circle. Each check is also shown failing on a copy of the tree with one bad import added.
"""

from __future__ import annotations

import graphlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import grimp  # import-linter's graph library

from tests.conftest import ROOT

ROOMS = ("judge", "app", "worker")
LINT_IMPORTS = str(Path(sys.executable).parent / "lint-imports")


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the rooms found under ``root`` (its pyproject.toml's contracts)."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [LINT_IMPORTS, "--no-cache", "--config", str(root / "pyproject.toml")],
        capture_output=True,
        text=True,
        cwd=root,
        env=env,
        timeout=120,
    )


def cycle(root: Path) -> list[str] | None:
    """One import circle among the rooms' modules under ``root``, or None."""
    code = (
        "import graphlib, json, sys, grimp\n"
        "g = grimp.build_graph(*sys.argv[1:], cache_dir=None)\n"
        "deps = {m: g.find_modules_directly_imported_by(m) for m in g.modules}\n"
        "try:\n"
        "    graphlib.TopologicalSorter(deps).prepare()\n"
        "    print('null')\n"
        "except graphlib.CycleError as e:\n"
        "    print(json.dumps(e.args[1]))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(root)}
    r = subprocess.run(
        [sys.executable, "-c", code, *ROOMS],
        capture_output=True,
        text=True,
        cwd=root,
        env=env,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    found = json.loads(r.stdout)
    return None if found is None else list(found)


def copy_of_the_rooms(tmp_path: Path) -> Path:
    for room in ROOMS:
        shutil.copytree(ROOT / room, tmp_path / room, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def add_line(path: Path, line: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")


def test_the_rooms_import_one_way() -> None:
    r = lint_imports(ROOT)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "3 kept, 0 broken" in r.stdout


def test_a_judge_module_that_imports_the_web_breaks_the_contract(tmp_path: Path) -> None:
    root = copy_of_the_rooms(tmp_path)
    # Inside a function, as the old code hid its circles: still an import of the web.
    add_line(root / "judge" / "verdicts.py", "def _late() -> None:\n    from app import queue")
    r = lint_imports(root)
    assert r.returncode == 1, r.stdout[-3000:]
    assert "The judge imports nothing of the web or the worker BROKEN" in r.stdout
    assert "judge.verdicts -> app.queue" in r.stdout


def test_the_web_importing_the_worker_breaks_the_contract(tmp_path: Path) -> None:
    root = copy_of_the_rooms(tmp_path)
    add_line(root / "app" / "stats.py", "from worker import tasks  # noqa")
    r = lint_imports(root)
    assert r.returncode == 1
    assert "The web never imports the worker BROKEN" in r.stdout


def test_the_judge_never_needs_the_web_stack(tmp_path: Path) -> None:
    root = copy_of_the_rooms(tmp_path)
    add_line(root / "judge" / "device.py", "import sqlalchemy  # noqa")
    r = lint_imports(root)
    assert r.returncode == 1
    assert "The judge runs without the web stack" in r.stdout


def test_no_import_circle_anywhere() -> None:
    assert cycle(ROOT) is None


def test_a_circle_is_found_even_inside_a_function(tmp_path: Path) -> None:
    root = copy_of_the_rooms(tmp_path)
    # judge.problem.schema is imported by the checkers; importing one back closes a circle.
    add_line(
        root / "judge" / "problem" / "schema.py",
        "def _late() -> None:\n    from judge.checkers import exact",
    )
    found = cycle(root)
    assert found is not None
    assert "judge.problem.schema" in found and "judge.checkers.exact" in found


def test_grimp_sees_the_rooms() -> None:
    """The graph is not empty by accident (a wrong path would make every check pass)."""
    g = grimp.build_graph(*ROOMS, cache_dir=None)
    assert len(g.modules) > 150
    assert "judge.grader" in g.find_modules_directly_imported_by("judge.cli")
    deps = {m: g.find_modules_directly_imported_by(m) for m in g.modules}
    graphlib.TopologicalSorter(deps).prepare()
