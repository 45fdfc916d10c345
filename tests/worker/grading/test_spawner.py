"""A sandbox outlives the thread that asked for it (bwrap's --die-with-parent is per thread)."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from worker.grading import sandbox, spawner


def test_a_sandbox_started_by_a_short_lived_thread_survives_it(tmp_path: Path) -> None:
    workdir = tmp_path / "w"
    workdir.mkdir(mode=0o777)
    workdir.chmod(0o777)
    started: list[sandbox.Process] = []

    def start() -> None:
        started.append(sandbox.Process(["/bin/sh", "-c", "sleep 300"], sandbox.Policy(workdir)))
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
