"""Every sandbox has a process limit (sandbox/nproc.py): an unbounded fork bomb run as the
sandboxed command is refused with EAGAIN at the limit, never holds more tasks than that, leaves
nothing behind, and the worker grades the next submission as before."""

from __future__ import annotations

import dataclasses
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge import grader
from judge.problem import loader
from judge.sandbox import bubblewrap, nproc
from judge.verdicts import Verdict

REPO = Path(__file__).resolve().parents[3]
LIMIT = 48  # small, so that the bomb stays cheap on a shared 2-core CI host
# Unbounded: every process forks for ever; a refused fork is noted once and tried again.
BOMB = """
import errno, os, time
said = False
while True:
    try:
        os.fork()
    except OSError as e:
        if not said:
            said = True
            with open("/sandbox/refused", "a") as f:
                f.write(errno.errorcode.get(e.errno, str(e.errno)) + "\\n")
        time.sleep(0.05)
"""
# Another uid than the other tests' sandboxes (a root worker's count is per uid: the bomb would
# take their share); in no /etc/passwd.
BOMB_UID = "64251"


def _sandbox_available() -> str | None:
    if bubblewrap.mode() == "off":
        return "the sandbox is off"
    try:
        bubblewrap.bwrap_path()
        nproc.prlimit_path()
        if os.geteuid() == 0:
            bubblewrap.setpriv_path()
    except (bubblewrap.SandboxUnavailable, nproc.Unavailable) as e:
        return str(e)
    return None


needs_sandbox = pytest.mark.skipif(
    _sandbox_available() is not None, reason=str(_sandbox_available())
)


@pytest.fixture
def workdir() -> Iterator[Path]:
    """As the runner pool makes it: in /tmp, open to the sandbox uid."""
    w = Path(tempfile.mkdtemp(prefix="kerneldojo-test-"))
    w.chmod(0o777)
    yield w
    shutil.rmtree(w, ignore_errors=True)


def _tasks(pids: list[int]) -> int:
    """Processes and threads of ``pids``."""
    n = 0
    for p in pids:
        try:
            n += len(os.listdir(f"/proc/{p}/task"))
        except OSError:
            continue
    return n


def _uid_tasks(uid: int) -> list[int]:
    found = []
    for d in os.listdir("/proc"):
        try:
            if d.isdigit() and os.stat(f"/proc/{d}").st_uid == uid:
                found.append(int(d))
        except OSError:
            continue
    return [p for p in found if bubblewrap._running(p)]


def _bomb(workdir: Path, python: str = sys.executable) -> bubblewrap.Process:
    (workdir / "bomb.py").write_text(BOMB)
    return bubblewrap.Process(
        [python, "-I", "-S", "/sandbox/bomb.py"],
        bubblewrap.Policy(workdir, limits=bubblewrap.Limits(cpu_s=60)),
    )


def _watch(procs: list[bubblewrap.Process], seconds: float) -> int:
    """The most tasks any sandbox held while its bomb ran; each must have seen EAGAIN. A tree
    well past the limit is killed at once (the test then fails instead of the host)."""
    most = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for p in procs:
            n = _tasks(p.tree())
            most = max(most, n)
            if n > 3 * LIMIT:
                for q in procs:
                    q.kill()
                pytest.fail(f"the fork bomb reached {n} tasks: no process limit")
        time.sleep(0.05)
    return most


def _refused(workdir: Path) -> set[str]:
    path = workdir / "refused"
    return set(path.read_text().split()) if path.exists() else set()


def _grade_honest() -> str:
    problem = loader.resolve("vector-add")
    tests = tuple(c for c in problem.tests if c.interpreter)[:2]
    problem = dataclasses.replace(problem, tests=tests)
    source = (REPO / "problems/vector-add/solutions/accepted/triton_simple.py").read_text()
    return str(grader.grade(problem, source, "triton", device="cpu", mode="submit").verdict)


@needs_sandbox
@pytest.mark.timeout(300)
def test_an_unbounded_fork_bomb_stops_at_the_limit_and_the_worker_grades_on(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(nproc.ENV, str(LIMIT))
    monkeypatch.setenv(bubblewrap.SANDBOX_UID_ENV, BOMB_UID)
    uid = int(BOMB_UID) if bubblewrap.identity() == "setpriv" else os.geteuid()
    if uid == int(BOMB_UID):
        assert not _uid_tasks(uid), "processes of the bomb's uid exist before it starts"
    proc = _bomb(workdir)
    try:
        most = _watch([proc], 3.0)
        seen = _refused(workdir)
        tree = proc.tree()
    finally:
        proc.kill()
    assert seen == {"EAGAIN"}, seen
    # the sandbox's tasks, and bwrap's own two (outside the count: root, or the worker's uid)
    assert LIMIT // 2 < most <= LIMIT + 2
    assert not [p for p in tree if bubblewrap._running(p)]
    if uid == int(BOMB_UID):
        assert not _uid_tasks(uid)
    monkeypatch.delenv(nproc.ENV)
    monkeypatch.delenv(bubblewrap.SANDBOX_UID_ENV)
    assert _grade_honest() == Verdict.ACCEPTED


@needs_sandbox
@pytest.mark.timeout(120)
@pytest.mark.skipif(os.geteuid() != 0, reason="a root worker's 'drop' identity is tried here")
@pytest.mark.skipif(not os.path.exists("/usr/bin/python3"), reason="no system Python")
def test_in_a_user_namespace_each_sandbox_has_a_count_of_its_own(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Root without CAP_SYS_ADMIN (as a worker that is not root) gets a user namespace per
    sandbox: two bombs side by side each reach the limit, one of the sandbox uid's host-wide
    count would have stopped them together."""
    monkeypatch.setattr(bubblewrap, "_has_sys_admin", lambda: False)
    monkeypatch.setattr(bubblewrap, "_python_roots", lambda: [])  # this host's live under /root
    monkeypatch.setenv(nproc.ENV, str(LIMIT))
    monkeypatch.setenv(bubblewrap.SANDBOX_UID_ENV, BOMB_UID)
    dirs = []
    for name in ("a", "b"):
        d = Path(tempfile.mkdtemp(prefix=f"kerneldojo-test-{name}-"))
        d.chmod(0o777)
        dirs.append(d)
    procs: list[bubblewrap.Process] = []
    try:
        procs = [_bomb(d, "/usr/bin/python3") for d in dirs]
        _watch(procs, 3.0)
        held = len(_uid_tasks(int(BOMB_UID)))
        refused = [_refused(d) for d in dirs]
    finally:
        for p in procs:
            p.kill()
        for d in dirs:
            shutil.rmtree(d, ignore_errors=True)
    assert refused == [{"EAGAIN"}, {"EAGAIN"}]
    assert 2 * LIMIT - 4 <= held <= 2 * LIMIT + 4  # each bwrap's monitor is of that uid too
    assert not _uid_tasks(int(BOMB_UID))


def _tail(argv: list[str]) -> list[str]:
    return argv[argv.index("--") + 1 :]


@pytest.fixture
def bwrap_anywhere(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.setattr(bubblewrap, "mode", lambda: "bwrap")
    monkeypatch.setattr(bubblewrap, "bwrap_path", lambda: "/usr/bin/bwrap")
    monkeypatch.setattr(bubblewrap, "setpriv_path", lambda: "/usr/bin/setpriv")
    monkeypatch.setattr(nproc, "prlimit_path", lambda: "/usr/bin/prlimit")
    monkeypatch.setattr(bubblewrap, "_has_sys_admin", lambda: True)
    monkeypatch.setattr(os, "cpu_count", lambda: 16)
    monkeypatch.delenv(nproc.ENV, raising=False)
    return monkeypatch


def test_the_limit_is_set_inside_the_sandbox_right_before_the_command(
    bwrap_anywhere: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    one = nproc.PER_SANDBOX + 16 * nproc.PER_CPU
    user = bubblewrap.command(["python3"], bubblewrap.Policy(tmp_path), euid=1000)
    assert _tail(user) == ["/usr/bin/prlimit", f"--nproc={one}:{one}", "--", "python3"]
    root = _tail(bubblewrap.command(["python3"], bubblewrap.Policy(tmp_path), euid=0))
    shared = one * nproc.SANDBOXES_PER_UID  # one count for every sandbox of the uid
    assert root[0] == "/usr/bin/setpriv"  # the uid is dropped first, then the limit set
    assert root[root.index("--") + 1 :] == [
        "/usr/bin/prlimit",
        f"--nproc={shared}:{shared}",
        "--",
        "python3",
    ]
    bwrap_anywhere.setenv(nproc.ENV, "300")
    assert "--nproc=300:300" in bubblewrap.command(["x"], bubblewrap.Policy(tmp_path), euid=0)
    bwrap_anywhere.setattr(bubblewrap, "mode", lambda: "off")
    assert bubblewrap.command(["x"], bubblewrap.Policy(tmp_path)) == ["x"]


@pytest.mark.parametrize("value", ["0", "-1", "many"])
def test_a_bad_limit_is_a_clear_error(
    bwrap_anywhere: pytest.MonkeyPatch, tmp_path: Path, value: str
) -> None:
    bwrap_anywhere.setenv(nproc.ENV, value)
    with pytest.raises(bubblewrap.SandboxUnavailable, match=nproc.ENV):
        bubblewrap.command(["x"], bubblewrap.Policy(tmp_path), euid=1000)
