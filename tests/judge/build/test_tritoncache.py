"""The Triton cache the runners share: what a runner's note may ask for, how runners read it."""

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.build import cachepaths, tritoncache
from judge.sandbox import bubblewrap


def write_report(workdir: Path, lines: list[str]) -> None:
    (workdir / tritoncache.REPORT).write_text("\n".join(lines) + "\n")


def test_report_keeps_well_formed_distinct_signatures(tmp_path: Path) -> None:
    good = ["*fp32", "*fp32", "*fp32", "i32", "constexpr"]
    write_report(
        tmp_path,
        [
            json.dumps(good),
            json.dumps(good),  # the same launcher twice: compiled once
            json.dumps(["*kbf16", ["i32", "i64"], "fp32", "*fp8e4nv"]),  # a tuple argument
            json.dumps(["*fp32", 'int); system("id"); (int']),  # not a Triton type name
            json.dumps(["*fp32", "i33"]),
            json.dumps(["*fp32", "i32\n"]),  # "$" would have matched before the newline
            json.dumps(["fp8e4nv"]),  # no C type for an fp8 scalar: only behind a pointer
            json.dumps([["i32", ["i64"]]]),  # nested deeper than Triton's tuples
            json.dumps([[]]),
            json.dumps([]),
            json.dumps({"sig": good}),
            "not json",
            json.dumps(["i32"] * (tritoncache.MAX_ARGS + 1)),
            # few arguments, but thousands of scalars once flattened (gcc took 207 s on one)
            json.dumps([["i1"] * 64] * 64),
            json.dumps(["i32", ["i1"] * tritoncache.MAX_ARGS]),
        ],
    )
    assert tritoncache.read_report(tmp_path) == [
        good,
        ["*kbf16", ("i32", "i64"), "fp32", "*fp8e4nv"],
    ]


def test_report_is_capped(tmp_path: Path) -> None:
    write_report(tmp_path, [json.dumps(["*fp32"] * k) for k in range(1, 30)])
    assert len(tritoncache.read_report(tmp_path)) == tritoncache.MAX_LEARN


def test_learned_signatures_are_compiled_once_in_a_child(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The whole path but gcc: the note read, a child process started from the worker package,
    # the signatures validated again there, compile_launchers run (Triton 3.6 builds a launcher
    # per signature; later Triton versions have none to build), the batch remembered.
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "cache"))
    work = tmp_path / "work"
    work.mkdir()
    sig = ["*fp32", "*fp32", "i32", "constexpr", "i64"]
    write_report(work, [json.dumps(sig)])
    monkeypatch.setattr(tritoncache, "_known", set())
    tritoncache.learn(work)
    assert tritoncache.drain(120)
    assert json.dumps(sig) in tritoncache._known
    before = tritoncache._pending.unfinished_tasks
    tritoncache.learn(work)  # known now: nothing queued
    assert tritoncache._pending.unfinished_tasks == before == 0
    from triton.backends.nvidia import driver

    launchers = list((tmp_path / "cache").glob("*/__triton_launcher*"))
    assert len(launchers) == (1 if hasattr(driver, "make_launcher") else 0)


def test_report_ignores_links_and_fifos(tmp_path: Path) -> None:
    secret = tmp_path / "elsewhere.jsonl"
    secret.write_text(json.dumps(["*fp32"]) + "\n")
    work = tmp_path / "work"
    work.mkdir()
    (work / tritoncache.REPORT).symlink_to(secret)
    assert tritoncache.read_report(work) == []
    (work / tritoncache.REPORT).unlink()
    os.mkfifo(work / tritoncache.REPORT)  # would block a plain open() forever
    assert tritoncache.read_report(work) == []
    assert tritoncache.read_report(tmp_path / "missing") == []


@pytest.fixture
def shared_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    from triton import knobs

    shared = tmp_path / "shared"
    shared.mkdir()
    monkeypatch.setenv(cachepaths.SHARED_ENV, str(shared))
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "private"))
    yield shared
    del knobs.cache.manager_class  # back to Triton's default


def test_runner_reads_the_shared_cache_and_writes_its_own(
    shared_cache: Path, tmp_path: Path
) -> None:
    from triton.runtime.cache import FileCacheManager, get_cache_manager

    # The worker's side: its own cache is the shared folder.
    os.environ["TRITON_CACHE_DIR"] = str(shared_cache)
    key = "A" * 52
    trusted = FileCacheManager(key)
    cubin = trusted.put(b"\x7fELF kernel", "k.cubin", binary=True)
    trusted.put_group("k.json", {"k.cubin": cubin})
    os.environ["TRITON_CACHE_DIR"] = str(tmp_path / "private")

    tritoncache.install_in_runner(tmp_path)
    cache = get_cache_manager("")  # the class installed for this process
    assert type(cache).__name__ == "SharedReadCache"

    runner = type(cache)(key)
    assert runner.get_file("k.cubin") == cubin
    assert runner.get_group("k.json") == {"k.cubin": cubin}
    written = runner.put(b"runner's", "other.bin", binary=True)
    assert written.startswith(str(tmp_path / "private"))
    assert runner.get_file("other.bin") == written
    assert not (shared_cache / key / "other.bin").exists()
    # A key the worker never compiled: the private cache only.
    assert type(cache)("B" * 52).get_file("k.cubin") is None


def test_shared_folder_is_read_only_in_the_sandbox(tmp_path: Path) -> None:
    if bubblewrap.mode() == "off":
        pytest.fail("the sandbox is off: these tests need bwrap")
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "launcher.so").write_text("compiled by the worker")
    work = tmp_path / "work"
    work.mkdir()
    work.chmod(0o777)
    script = (
        "import sys; p = sys.argv[1]; print(open(p).read())\n"
        "try:\n    open(p, 'w').write('planted')\nexcept OSError as e:\n    print('denied', e.errno)\n"
    )
    policy = bubblewrap.Policy(workdir=work, read_only=(str(shared),))
    proc = bubblewrap.Process(
        [sys.executable, "-c", script, str(shared / "launcher.so")],
        policy,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    out, _ = proc.popen.communicate(timeout=60)
    text = out.decode()
    assert "compiled by the worker" in text and "denied" in text, text
    assert (shared / "launcher.so").read_text() == "compiled by the worker"
