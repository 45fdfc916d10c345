"""Compiled kernels kept per source (judge/build/sourcecache.py): what the worker copies out of
a runner's Triton cache (untrusted files), where it puts it, and what a runner is told."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from judge.build import cachepaths, sourcecache

ENTRY = "A" * 20 + "bcdef"  # a Triton cache key folder


@pytest.fixture
def cache_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "triton"))
    return tmp_path


def runner_cache(workdir: Path, secret_file: Path) -> Path:
    """A runner's private cache as Triton leaves it, plus what a hostile submission adds."""
    entry = workdir / ".triton" / ENTRY
    entry.mkdir(parents=True)
    (entry / "kernel.cubin").write_bytes(b"\x7fELF cubin")
    (entry / "kernel.json").write_text('{"name": "kernel"}')
    (entry / "kernel.ptx").write_text("// ptx")
    group = {n: str(entry / n) for n in ("kernel.cubin", "kernel.json", "kernel.ptx")}
    (entry / "__grp__kernel.json").write_text(json.dumps({"child_paths": group}))
    (entry / "__triton_launcher.so").write_bytes(b"\x7fELF shared library")
    (entry / "stolen.json").symlink_to(secret_file)
    os.link(entry / "kernel.ptx", entry / "linked.ptx")  # two names: refused
    (entry / "notes.txt").write_text("not a Triton file")
    (workdir / ".triton" / "short").mkdir()  # not a Triton key
    (workdir / ".triton" / "short" / "x.cubin").write_bytes(b"x")
    (workdir / ".triton" / ("B" * 24)).symlink_to(secret_file.parent)
    return entry


def test_store_keeps_triton_files_only_and_moves_groups(cache_root: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.json"
    secret.write_text("do not copy")
    runner_cache(tmp_path / "work", secret)
    key = sourcecache.key("matmul", "def solve(): pass", "H100")
    assert sourcecache.folder(key) is None

    assert sourcecache.store(tmp_path / "work", key) == 2  # cubin and json
    where = sourcecache.folder(key)
    assert where is not None
    entry = where / ENTRY
    kept = sorted(p.name for p in entry.iterdir())
    # ptx had a second hard link, so it is refused, and the group that needs it with it.
    assert kept == ["kernel.cubin", "kernel.json"]
    assert not (where / "short").exists() and not (where / ("B" * 24)).exists()
    assert all(not p.is_symlink() for p in entry.iterdir())
    assert stat.S_IMODE((entry / "kernel.cubin").stat().st_mode) == 0o444
    # The root can be passed through but not listed by anyone but the worker.
    assert stat.S_IMODE(sourcecache.root().stat().st_mode) == 0o311


def test_a_group_points_to_its_new_place(cache_root: Path, tmp_path: Path) -> None:
    entry = tmp_path / "work" / ".triton" / ENTRY
    entry.mkdir(parents=True)
    for name in ("k.cubin", "k.json"):
        (entry / name).write_text(name)
    group = {n: str(entry / n) for n in ("k.cubin", "k.json")}
    (entry / "__grp__k.json").write_text(json.dumps({"child_paths": group}))
    key = sourcecache.key("softmax", "source", "H100")
    assert sourcecache.store(tmp_path / "work", key) == 3
    where = sourcecache.folder(key)
    assert where is not None
    moved = json.loads((where / ENTRY / "__grp__k.json").read_text())["child_paths"]
    assert moved == {n: str(where / ENTRY / n) for n in ("k.cubin", "k.json")}
    assert all(Path(p).read_text() == Path(p).name for p in moved.values())
    assert sourcecache.store(tmp_path / "work", key) == 0  # kept once


def test_keys_depend_on_source_problem_and_gpu(cache_root: Path) -> None:
    a = sourcecache.key("matmul", "x = 1", "H100")
    assert a == sourcecache.key("matmul", "x = 1", "H100")
    assert (
        len(
            {
                a,
                sourcecache.key("matmul", "x = 2", "H100"),
                sourcecache.key("softmax", "x = 1", "H100"),
                sourcecache.key("matmul", "x = 1", "H200"),
            }
        )
        == 4
    )
    assert stat.S_IMODE((cache_root / "triton-by-source.key").stat().st_mode) == 0o600


def test_least_recently_used_sources_go_first(
    cache_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sourcecache, "MAX_SOURCES", 2)
    keys = []
    for i in range(3):
        work = tmp_path / f"work{i}"
        (work / ".triton" / ENTRY).mkdir(parents=True)
        (work / ".triton" / ENTRY / "k.cubin").write_bytes(b"cubin")
        keys.append(sourcecache.key("p", f"source {i}", "H100"))
        if i == 1:
            os.utime(sourcecache.root() / keys[0], (1, 1))  # the first: long unused
        sourcecache.store(work, keys[-1])
    assert sourcecache.folder(keys[0]) is None
    assert sourcecache.folder(keys[1]) is not None and sourcecache.folder(keys[2]) is not None


def test_a_runner_reads_only_the_folder_the_referee_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(cachepaths.ROOT_ENV, str(tmp_path))
    sourcecache.note_in_runner({"source_cache": "ab" * 20})
    assert cachepaths.runner_dirs() == [str(tmp_path / ("ab" * 20))]
    for bad in ("../etc", "AB" * 20, 7, None):
        sourcecache.note_in_runner({"source_cache": bad})
        assert cachepaths.runner_dirs() == []
