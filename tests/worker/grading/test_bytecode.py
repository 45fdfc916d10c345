"""The worker's start-up check for packages installed without bytecode (bytecode.py)."""

from __future__ import annotations

import compileall
import logging
import sys
from pathlib import Path

import pytest

from worker.grading import bytecode


def test_a_package_without_bytecode_is_named_until_it_is_compiled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    pkg = tmp_path / "kd_nobytecode_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.setattr(bytecode, "MODULES", ("kd_nobytecode_pkg", "kd_not_installed_at_all"))
    with caplog.at_level(logging.WARNING, logger=bytecode.log.name):
        assert bytecode.warn_if_missing() == ["kd_nobytecode_pkg"]
    assert "kd_nobytecode_pkg" in caplog.text and "compileall" in caplog.text
    assert compileall.compile_dir(str(pkg), quiet=1)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger=bytecode.log.name):
        assert bytecode.warn_if_missing() == []
    assert not caplog.text


def test_this_environments_judge_packages_have_their_bytecode() -> None:
    """make install (pip) compiles them: the check names nothing on a normal install."""
    assert bytecode.missing(("torch", "numpy")) == []
