"""The worker's start-up check for packages installed without bytecode (bytecode.py)."""

from __future__ import annotations

import compileall
import logging
import sys
import types
from pathlib import Path

import pytest

from judge.build import bytecode


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


def test_an_odd_install_is_skipped_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check runs at a GPU worker's start, before its tool spares and warm-up: a module whose
    spec cannot be read (here one in sys.modules without ``__spec__``, for which find_spec raises
    ValueError) is left out instead of taking that start down."""
    odd = types.ModuleType("kd_odd_module")
    odd.__spec__ = None
    monkeypatch.setitem(sys.modules, "kd_odd_module", odd)
    monkeypatch.setattr(bytecode, "MODULES", ("kd_odd_module", "numpy"))
    assert bytecode.warn_if_missing() == []


def test_the_runners_plain_bytecode_is_looked_for_under_python_o(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Runners start without -O: a worker run with it looks for the plain .pyc (what pip
    writes), not the .opt-1.pyc nobody made."""
    flags = types.SimpleNamespace(
        **{
            k: getattr(sys.flags, k)
            for k in dir(sys.flags)
            if k[0] != "_" and not callable(getattr(sys.flags, k))
        }
    )
    flags.optimize = 1
    monkeypatch.setattr(sys, "flags", flags)
    assert bytecode.missing(("numpy",)) == []
