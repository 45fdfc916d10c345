"""A deliberately broken environment: a stand-in package whose import raises inside the library
(as numba-cuda did on NumPy 2.5: ``module 'numpy' has no attribute 'row_stack'``), put first on
``sys.path`` or ``PYTHONPATH`` by a test. The judge's self-test (judge/doctor.py) must mark the
language that imports it unavailable, naming the library's file package-relative."""

from __future__ import annotations

from pathlib import Path

ERROR = "module 'numpy' has no attribute 'row_stack'"


def broken_package(root: Path, name: str = "numba") -> Path:
    """``root/lib/python3/site-packages/<name>``, whose import raises in ``<name>/_core.py``
    (under a site-packages folder, as a real one is); returns the folder to put on the path."""
    site = root / "lib" / "python3" / "site-packages"
    pkg = site / name
    pkg.mkdir(parents=True, exist_ok=True)
    (pkg / "__init__.py").write_text(
        f'"""A broken stand-in for {name} (tests/broken_env.py)."""\nfrom {name} import _core\n'
    )
    (pkg / "_core.py").write_text(
        "import numpy as np\n\n\ndef _register():\n"
        f"    raise AttributeError({ERROR!r})\n\n\n_register()\n"
    )
    return site
