"""The recorded Nsight Compute and compute-sanitizer output (tests/fixtures/ncu/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT

NCU = ROOT / "tests" / "fixtures" / "ncu"


def recorded(name: str) -> str:
    return (NCU / name).read_text(encoding="utf-8")


@pytest.fixture
def ncu_dir() -> Path:
    return NCU
