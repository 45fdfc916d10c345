"""``make install`` (and so the first ``make serve``) without setuptools' editable-install box
(#37, item 11): every ``pip install -e`` printed a boxed warning about folders named like the
package. The Makefile filters that one warning by its message (EDITABLE_QUIET); this runs pip's
editable install of a small project with and without that filter, as the Makefile does."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

BOX = "Please be careful with folders in your working directory"


def _makefile_env() -> dict[str, str]:
    """EDITABLE_QUIET's assignments, and that the editable install uses them."""
    text = (ROOT / "Makefile").read_text()
    m = re.search(r"^EDITABLE_QUIET\s*:=\s*(.+)$", text, re.M)
    assert m, "the Makefile defines EDITABLE_QUIET"
    assert re.search(r"^\t\$\(EDITABLE_QUIET\) \$\(PY\) -m pip install .*-e ", text, re.M)
    return dict(word.split("=", 1) for word in shlex.split(m.group(1)))


def _install(
    project: Path, prefix: Path, extra_env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"} | extra_env
    cmd = [sys.executable, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-deps"]
    cmd += ["--no-index", "--prefix", str(prefix), "-e", str(project)]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)


def test_the_editable_install_box_is_filtered_and_errors_still_show(tmp_path: Path) -> None:
    env = _makefile_env()
    project = tmp_path / "proj"
    (project / "kdpkg").mkdir(parents=True)
    (project / "kdpkg" / "__init__.py").write_text("")
    (project / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=77"]\nbuild-backend = "setuptools.build_meta"\n'
        '[project]\nname = "kdpkg"\nversion = "0"\n'
        '[tool.setuptools.packages.find]\ninclude = ["kdpkg*"]\n'
    )
    plain = _install(project, tmp_path / "plain", {})
    assert plain.returncode == 0, plain.stderr
    assert BOX in plain.stdout + plain.stderr  # what the learner saw: the box is real here

    quiet = _install(project, tmp_path / "quiet", env)
    assert quiet.returncode == 0, quiet.stderr
    assert BOX not in quiet.stdout + quiet.stderr, quiet.stderr

    # A real failure still speaks: a project whose metadata is wrong fails loudly, filter on.
    (project / "pyproject.toml").write_text(
        (project / "pyproject.toml").read_text().replace('version = "0"', "version = 0")
    )
    broken = _install(project, tmp_path / "broken", env)
    assert broken.returncode != 0
    assert "version" in broken.stdout + broken.stderr
