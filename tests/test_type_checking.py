"""mypy's configuration keeps covering the judge, the site and the GPU host's scripts: a folder
dropped from ``[tool.mypy]``, an exclude, or a file-wide ignore would let their types rot
without ``make lint`` saying so."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ("judge", "app", "worker", "benchmarks", "scripts")


def _mypy_config() -> dict[str, Any]:
    config: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    return config


def test_mypy_checks_every_folder_of_our_python_strictly() -> None:
    config = _mypy_config()
    assert set(config["files"]) == set(CHECKED)
    assert config["strict"] is True
    for folder in CHECKED:
        assert any((ROOT / folder).rglob("*.py")), folder


def test_nothing_is_carved_out_of_the_check() -> None:
    config = _mypy_config()
    assert "exclude" not in config
    assert "packages" not in config and "modules" not in config  # mypy would refuse the mix
    for override in config.get("overrides", []):
        assert not override.get("ignore_errors"), override


def test_make_lint_runs_mypy_on_the_configured_files() -> None:
    makefile = (ROOT / "Makefile").read_text()
    lint = re.search(r"^lint:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert lint is not None
    # No paths after it: the configuration above decides what is checked.
    assert re.search(r"^\t\$\(VENV\)/bin/mypy$", lint.group(1), re.M), lint.group(1)


def test_benchmarks_and_scripts_silence_mypy_only_line_by_line_with_a_code() -> None:
    for folder in ("benchmarks", "scripts"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            text = path.read_text()
            assert not re.search(r"#\s*mypy:\s*ignore-errors", text), path
            bare = re.search(r"#\s*type:\s*ignore(?!\[)", text)
            assert bare is None, f"{path}: a type: ignore without an error code"
