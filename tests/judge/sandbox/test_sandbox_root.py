"""A worker run as root lends no privilege to the sandbox: sandboxed code is an unprivileged host
user (``KERNELDOJO_SANDBOX_UID``/``GID``), in no user namespace, with no capabilities; a worker
that is not root keeps its user namespace (SECURITY.md, hole 2 before it was closed)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.sandbox import bubblewrap, nproc

ZERO = "0000000000000000"
PROBE = (
    "touch /sandbox/made; grep -E '^(Uid|Gid|Groups|Cap[A-Za-z]+|NoNewPrivs):' /proc/self/status; "
    "if cat /etc/shadow >/dev/null 2>&1; then echo SHADOW-READ; else echo shadow-denied; fi"
)


def _can_sandbox_as_root() -> str | None:
    if os.geteuid() != 0:
        return "needs a worker running as root"
    if bubblewrap.mode() == "off":
        return "the sandbox is off"
    try:
        bubblewrap.bwrap_path()
        bubblewrap.setpriv_path()
    except bubblewrap.SandboxUnavailable as e:
        return str(e)
    return None


as_root = pytest.mark.skipif(_can_sandbox_as_root() is not None, reason=str(_can_sandbox_as_root()))


def _workdir(tmp_path: Path) -> Path:
    w = tmp_path / "work"
    w.mkdir()
    w.chmod(0o777)  # as the grader and the runner pool make it
    return w


def _status(output: str) -> dict[str, str]:
    return {
        k: v.strip() for line in output.splitlines() if ":" in line for k, v in [line.split(":", 1)]
    }


def _probe(workdir: Path) -> tuple[dict[str, str], str]:
    code, out, timed_out = bubblewrap.run(["/bin/sh", "-c", PROBE], bubblewrap.Policy(workdir), 60)
    assert code == 0 and not timed_out, out
    return _status(out), out


@as_root
def test_a_root_worker_runs_sandboxed_code_as_an_unprivileged_host_user(tmp_path: Path) -> None:
    uid, gid = bubblewrap.sandbox_ids()
    workdir = _workdir(tmp_path)
    status, out = _probe(workdir)
    # seen from the host, not through a user namespace's mapping
    made = (workdir / "made").stat()
    assert (made.st_uid, made.st_gid) == (uid, gid)
    assert status["Uid"].split() == [str(uid)] * 4
    assert status["Gid"].split() == [str(gid)] * 4
    assert status["Groups"] == ""
    for cap in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"):
        assert status[cap] == ZERO, out
    assert status["NoNewPrivs"] == "1"
    assert "shadow-denied" in out and "SHADOW-READ" not in out


@as_root
def test_the_sandbox_uid_and_gid_are_configurable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a dedicated id, in no /etc/passwd
    monkeypatch.setenv(bubblewrap.SANDBOX_UID_ENV, "64123")
    monkeypatch.setenv(bubblewrap.SANDBOX_GID_ENV, "64124")
    workdir = _workdir(tmp_path)
    status, out = _probe(workdir)
    made = (workdir / "made").stat()
    assert (made.st_uid, made.st_gid) == (64123, 64124)
    assert status["CapEff"] == ZERO and "shadow-denied" in out


@as_root
def test_a_uid_in_no_passwd_still_has_a_user_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """torch 2.11 asks ``getpass.getuser()`` at its first dispatch-mode op (the runner's
    preload): for a sandbox uid in no /etc/passwd that raised KeyError and the runner exited
    with status 1 on the H200 (the adversarial fork bomb's uid of its own)."""
    monkeypatch.setenv(bubblewrap.SANDBOX_UID_ENV, "64123")
    monkeypatch.setenv(bubblewrap.SANDBOX_GID_ENV, "64124")
    code, out, _ = bubblewrap.run(
        [sys.executable, "-c", "import getpass; print('user', getpass.getuser())"],
        bubblewrap.Policy(_workdir(tmp_path)),
        60,
    )
    assert code == 0 and "user sandbox" in out, out


@as_root
def test_a_read_only_bind_below_a_private_folder_is_reachable(tmp_path: Path) -> None:
    """As the Triton cache under /root/.cache: the host's folders above it are closed to the
    sandbox uid, the ones bwrap makes inside the sandbox must not be."""
    private = tmp_path / "private"
    shared = private / "deep" / "shared"
    shared.mkdir(parents=True)
    private.chmod(0o700)
    (shared / "launcher.so").write_text("compiled by the worker")
    policy = bubblewrap.Policy(_workdir(tmp_path), read_only=(str(shared),))
    code, out, _ = bubblewrap.run(["/bin/cat", str(shared / "launcher.so")], policy, 60)
    assert code == 0 and out == "compiled by the worker", out
    code, out, _ = bubblewrap.run(["/bin/sh", "-c", f"echo x > {shared}/planted"], policy, 60)
    assert code != 0 and not (shared / "planted").exists()


@as_root
def test_the_sandbox_dies_with_a_root_worker(tmp_path: Path) -> None:
    """setpriv's uid change clears the parent-death signal of the sandboxed command; bwrap's
    PID 1 keeps its own, and its death takes the whole PID namespace with it."""
    workdir = _workdir(tmp_path)
    helper = f"""
import sys, time
from pathlib import Path
from judge.sandbox import bubblewrap
p = bubblewrap.Process(["/bin/sh", "-c", "sleep 300 & sleep 300 & wait"], bubblewrap.Policy(Path({str(workdir)!r})))
for _ in range(200):
    tree = p.tree()
    if len(tree) >= 5:  # bwrap, bwrap's PID 1, sh, two sleeps
        break
    time.sleep(0.05)
print(" ".join(map(str, tree)), flush=True)
time.sleep(300)
"""
    worker = subprocess.Popen(
        [sys.executable, "-c", helper],
        cwd=str(bubblewrap.REPO_ROOT),
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert worker.stdout is not None
        pids = [int(p) for p in worker.stdout.readline().split()]
        assert len(pids) >= 5
        uid, _ = bubblewrap.sandbox_ids()
        assert any(os.stat(f"/proc/{p}").st_uid == uid for p in pids)
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait()
    deadline = time.monotonic() + 10
    while (alive := [p for p in pids if _alive(p)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            state = f.read().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in (b"Z", b"X")


@as_root
def test_freeze_thaw_and_kill_reach_the_dropped_processes(tmp_path: Path) -> None:
    p = bubblewrap.Process(
        ["/bin/sh", "-c", "sleep 300 & wait"], bubblewrap.Policy(_workdir(tmp_path))
    )
    try:
        for _ in range(200):
            if len(tree := p.tree()) >= 4:
                break
            time.sleep(0.05)
        p.freeze()
        time.sleep(0.1)
        assert all(_state(x) in ("T", "") for x in tree)
        p.thaw()
        time.sleep(0.1)
        assert all(_state(x) != "T" for x in tree)
    finally:
        p.kill()
    assert not [x for x in tree if _alive(x)]


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0].decode()
    except OSError:
        return ""


@pytest.fixture
def bwrap_anywhere(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.setattr(bubblewrap, "mode", lambda: "bwrap")
    monkeypatch.setattr(bubblewrap, "bwrap_path", lambda: "/usr/bin/bwrap")
    monkeypatch.setattr(bubblewrap, "setpriv_path", lambda: "/usr/bin/setpriv")
    monkeypatch.setattr(nproc, "prlimit_path", lambda: "/usr/bin/prlimit")
    monkeypatch.setenv(nproc.ENV, "500")
    monkeypatch.setattr(bubblewrap, "_has_sys_admin", lambda: True)
    monkeypatch.delenv(bubblewrap.SANDBOX_UID_ENV, raising=False)
    monkeypatch.delenv(bubblewrap.SANDBOX_GID_ENV, raising=False)
    return monkeypatch


def test_a_worker_that_is_not_root_keeps_its_user_namespace(
    bwrap_anywhere: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    argv = bubblewrap.command(["python3"], bubblewrap.Policy(tmp_path), euid=1000)
    assert argv[1:7] == ["--unshare-all", "--unshare-user", "--uid", "65534", "--gid", "65534"]
    assert "--cap-add" not in argv and "/usr/bin/setpriv" not in argv
    assert argv[argv.index("--") + 1 :] == ["/usr/bin/prlimit", "--nproc=500:500", "--", "python3"]


def test_a_root_worker_gets_no_user_namespace_and_a_uid_drop(
    bwrap_anywhere: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    bwrap_anywhere.setenv(bubblewrap.SANDBOX_UID_ENV, "7001")
    bwrap_anywhere.setenv(bubblewrap.SANDBOX_GID_ENV, "7002")
    argv = bubblewrap.command(["python3"], bubblewrap.Policy(tmp_path), euid=0)
    head = argv[: argv.index("--")]
    assert "--unshare-user" not in head and "--unshare-all" not in head and "--uid" not in head
    for ns in ("--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts"):
        assert ns in head
    caps = [head[i + 1] for i, a in enumerate(head) if a == "--cap-add"]
    assert head[head.index("--cap-drop") + 1] == "ALL"
    assert head.index("--cap-drop") < head.index("--cap-add")
    assert sorted(caps) == ["CAP_SETGID", "CAP_SETPCAP", "CAP_SETUID"]
    assert argv[argv.index("--") + 1 :] == [
        "/usr/bin/setpriv",
        "--reuid=7001",
        "--regid=7002",
        "--clear-groups",
        "--inh-caps=-all",
        "--bounding-set=-all",
        "--no-new-privs",
        "--",
        "/usr/bin/prlimit",
        "--nproc=500:500",
        "--",
        "python3",
    ]


def test_root_without_cap_sys_admin_drops_before_bwrap(
    bwrap_anywhere: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """In a container with Docker's default capabilities bwrap needs its user namespace: the
    worker drops to the sandbox uid first (Process), and the command is a non-root worker's."""
    bwrap_anywhere.setattr(bubblewrap, "_has_sys_admin", lambda: False)
    assert bubblewrap.identity(0) == "drop" and bubblewrap.identity(1000) == "userns"
    policy = bubblewrap.Policy(tmp_path)
    assert bubblewrap.command(["python3"], policy, euid=0) == bubblewrap.command(
        ["python3"], policy, euid=1000
    )


@pytest.fixture
def tmp_workdir() -> Iterator[Path]:
    """A work folder as the runner pool makes it (in /tmp, which every uid can traverse)."""
    w = Path(tempfile.mkdtemp(prefix="kerneldojo-test-"))
    w.chmod(0o777)
    yield w
    shutil.rmtree(w, ignore_errors=True)


@as_root
def test_root_without_cap_sys_admin_runs_the_sandbox_as_the_sandbox_user(
    monkeypatch: pytest.MonkeyPatch, tmp_workdir: Path
) -> None:
    monkeypatch.setattr(bubblewrap, "_has_sys_admin", lambda: False)
    monkeypatch.setattr(bubblewrap, "_python_roots", lambda: [])  # this host's lives under /root
    uid, gid = bubblewrap.sandbox_ids()
    status, out = _probe(tmp_workdir)
    made = (tmp_workdir / "made").stat()
    assert (made.st_uid, made.st_gid) == (uid, gid)
    for cap in ("CapPrm", "CapEff", "CapBnd", "CapAmb"):
        assert status[cap] == ZERO, out
    assert "shadow-denied" in out and "SHADOW-READ" not in out


def test_root_without_cap_sys_admin_names_a_folder_it_cannot_reach(
    monkeypatch: pytest.MonkeyPatch, tmp_workdir: Path, tmp_path: Path
) -> None:
    monkeypatch.delenv(bubblewrap.SANDBOX_UID_ENV, raising=False)
    monkeypatch.delenv(bubblewrap.SANDBOX_GID_ENV, raising=False)
    monkeypatch.setattr(bubblewrap, "_umask", lambda: 0o022)
    monkeypatch.setattr(bubblewrap, "_python_roots", lambda: [])
    monkeypatch.setattr(bubblewrap, "bwrap_path", lambda: "/bin/sh")
    private = tmp_path / "private"
    cache = private / "triton"
    cache.mkdir(parents=True)
    private.chmod(0o700)
    policy = bubblewrap.Policy(tmp_workdir, read_only=(str(cache),))
    bubblewrap.check_root_access(policy)  # bwrap started as root reaches it, and binds it
    with pytest.raises(bubblewrap.SandboxUnavailable, match=r"private.*CAP_SYS_ADMIN"):
        bubblewrap.check_root_access(policy, before_bwrap=True)


@pytest.mark.parametrize("value", ["0", "-5", "nobody", "4294967295"])
def test_the_sandbox_never_runs_as_root_or_a_bad_id(
    bwrap_anywhere: pytest.MonkeyPatch, tmp_path: Path, value: str
) -> None:
    bwrap_anywhere.setenv(bubblewrap.SANDBOX_UID_ENV, value)
    with pytest.raises(bubblewrap.SandboxUnavailable):
        bubblewrap.command(["python3"], bubblewrap.Policy(tmp_path), euid=0)


def test_a_gpu_node_closed_to_the_sandbox_uid_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(bubblewrap.SANDBOX_UID_ENV, raising=False)
    monkeypatch.delenv(bubblewrap.SANDBOX_GID_ENV, raising=False)
    monkeypatch.setattr(bubblewrap, "_umask", lambda: 0o022)
    dev = tmp_path / "dev"
    dev.mkdir()
    for name in ("nvidia0", "nvidiactl", "nvidia-uvm", "nvidia-uvm-tools"):
        (dev / name).touch()
        (dev / name).chmod(0o666)
    (dev / "nvidia-uvm-tools").chmod(0o600)  # not needed by CUDA: no error
    monkeypatch.setattr(bubblewrap, "_gpu_nodes", lambda *a: sorted(str(p) for p in dev.iterdir()))
    policy = bubblewrap.Policy(_workdir(tmp_path), gpu=True)
    bubblewrap.check_root_access(policy)
    (dev / "nvidia0").chmod(0o660)
    with pytest.raises(bubblewrap.SandboxUnavailable, match=r"nvidia0.*0660"):
        bubblewrap.check_root_access(policy)
    (dev / "nvidia0").chmod(0o666)
    policy.workdir.chmod(0o700)
    with pytest.raises(bubblewrap.SandboxUnavailable, match="work folder"):
        bubblewrap.check_root_access(policy)


@as_root
def test_kill_holds_the_sandboxs_pid_namespace_until_its_sweep_is_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PID namespace's inode number is reused once the namespace is freed: the sweep for its
    members must hold it open, or it could kill a newer sandbox that got the same number."""
    p = bubblewrap.Process(
        ["/bin/sh", "-c", "sleep 300 & wait"], bubblewrap.Policy(_workdir(tmp_path))
    )
    held: list[str] = []
    real = bubblewrap.Process._kill

    def spy(self: bubblewrap.Process, pids: list[int], ns: str | None) -> None:
        real(self, pids, ns)
        # every member is dead now; the namespace itself is still held by the referee
        held.extend(os.readlink(f"/proc/self/fd/{fd}") for fd in _open_fds())

    monkeypatch.setattr(bubblewrap.Process, "_kill", spy)
    for _ in range(200):
        if len(p.tree()) >= 3:
            break
        time.sleep(0.05)
    ns = next(n for x in p.tree() if (n := bubblewrap._pidns(x)) != bubblewrap._pidns(os.getpid()))
    p.kill()
    assert ns in held
    assert ns not in [os.readlink(f"/proc/self/fd/{fd}") for fd in _open_fds()]  # released


def _open_fds() -> list[int]:
    out = []
    for name in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):
            if os.readlink(f"/proc/self/fd/{name}").startswith("pid:["):
                out.append(int(name))
    return out
