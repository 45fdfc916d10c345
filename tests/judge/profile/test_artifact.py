"""Files read back from the sandbox's work folder (profile/artifact.py): a submission may leave
anything at the report's path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from judge.profile import artifact


def test_plain_file_is_read_and_kept(tmp_path: Path) -> None:
    (tmp_path / "r.ncu-rep").write_bytes(b"NVIDIA report")
    data = artifact.read(tmp_path / "r.ncu-rep", 1 << 20)
    kept = artifact.keep(data, tmp_path / "kept", "x.ncu-rep")
    assert kept.read_bytes() == b"NVIDIA report"
    assert kept.stat().st_mode & 0o777 == 0o644


def test_symlink_to_a_host_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "r.ncu-rep").symlink_to("/etc/passwd")
    with pytest.raises(artifact.Unsafe, match="could not be opened safely"):
        artifact.read(tmp_path / "r.ncu-rep", 1 << 20)


def test_fifo_does_not_block(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "r.ncu-rep")
    with pytest.raises(artifact.Unsafe, match="not a regular file"):
        artifact.read(tmp_path / "r.ncu-rep", 1 << 20)


def test_oversized_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "r.ncu-rep").write_bytes(b"x" * 2048)
    with pytest.raises(artifact.Unsafe, match="larger than"):
        artifact.read(tmp_path / "r.ncu-rep", 1024)


def test_missing_file_is_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        artifact.read(tmp_path / "r.ncu-rep", 1024)
