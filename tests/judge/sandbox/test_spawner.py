"""A sandbox outlives the thread that asked for it (bwrap's --die-with-parent is per thread)."""

from __future__ import annotations

import concurrent.futures.thread
import os
import threading
import time
from pathlib import Path

import pytest

from judge.sandbox import bubblewrap, spawner


def test_a_sandbox_started_by_a_short_lived_thread_survives_it(tmp_path: Path) -> None:
    workdir = tmp_path / "w"
    workdir.mkdir(mode=0o777)
    workdir.chmod(0o777)
    started: list[bubblewrap.Process] = []

    def start() -> None:
        started.append(
            bubblewrap.Process(["/bin/sh", "-c", "sleep 300"], bubblewrap.Policy(workdir))
        )
        time.sleep(0.5)  # long enough for bwrap to have armed PR_SET_PDEATHSIG

    t = threading.Thread(target=start)
    t.start()
    t.join()
    (proc,) = started
    try:
        time.sleep(0.5)
        assert proc.popen.poll() is None, (
            f"the sandbox died with its thread: {proc.popen.returncode}"
        )
    finally:
        proc.kill()


def test_errors_reach_the_caller_and_a_forked_child_spawns_afresh() -> None:
    def boom() -> None:
        raise OSError("no such program")

    try:
        spawner.spawn(boom)
    except OSError as e:
        assert "no such program" in str(e)
    else:
        raise AssertionError("the error was swallowed")
    assert spawner.spawn(threading.get_ident) != threading.get_ident()
    pid = os.fork()
    if pid == 0:  # the child: the parent's spawning thread does not exist here
        code = 0 if spawner.spawn(lambda: 7) == 7 else 1
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_a_spawn_during_interpreter_shutdown_still_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Python stops its executors' threads before daemon threads (the pool's refill, a tool's
    spare) are done: a spawn then runs on the asking thread, as before spawner.py, instead of
    raising RuntimeError where callers expect OSError; the process is exiting anyway."""
    spawner.spawn(lambda: None)  # the spawning thread exists
    monkeypatch.setattr(concurrent.futures.thread, "_shutdown", True)
    assert spawner.spawn(threading.get_ident) == threading.get_ident()
