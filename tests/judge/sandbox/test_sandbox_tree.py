"""The process tree that freeze/thaw/kill act on, from /proc's children files or a full scan."""

import subprocess
import sys
import time

from judge.sandbox import bubblewrap

SCRIPT = """
import os, subprocess, sys, threading, time
kids = [subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"]) for _ in range(2)]
# a child forked by a second thread belongs to that thread's children file
t = threading.Thread(target=lambda: kids.append(
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])))
t.start(); t.join()
print("ready", flush=True)
time.sleep(30)
"""


def test_children_files_find_what_a_full_scan_finds() -> None:
    p = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
        time.sleep(0.2)
        scan = sorted(bubblewrap._children_map().get(p.pid, []))
        assert len(scan) == 3
        if bubblewrap._HAS_CHILDREN_FILES:
            assert sorted(bubblewrap._children(p.pid)) == scan
    finally:
        for k in bubblewrap._children_map().get(p.pid, []):
            subprocess.run(["kill", "-9", str(k)], check=False)
        p.kill()
        p.wait()


def test_a_zombie_is_not_running() -> None:
    """kill() waits for running processes only: a zombie has released everything it held and
    only waits for its parent (for the sandbox's init, the host's init: seconds) to collect it."""
    p = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert bubblewrap._running(p.pid)
        p.kill()
        deadline = time.monotonic() + 10
        while bubblewrap._running(p.pid) and time.monotonic() < deadline:
            time.sleep(0.01)
        with open(f"/proc/{p.pid}/stat") as f:  # not collected yet: a zombie
            assert f.read().rsplit(")", 1)[1].split()[0] == "Z"
        assert not bubblewrap._running(p.pid)
    finally:
        p.wait()
    assert not bubblewrap._running(p.pid)
