"""Hosts for deployment tests: Linux network namespaces on one bridge, and what runs in them.

Each ``Lan`` is a switch (a namespace holding a bridge) and hosts (a namespace each, with an
``eth0`` on the bridge and an address in ``SUBNET``.0/24). Everything is made inside the
namespaces, so the machine's own interfaces, routes and services (PostgreSQL and Redis on
127.0.0.1) are never touched, and two test runs at once do not collide: the names carry the
pid and a random suffix; ``Lan.close`` removes them, and a later run removes those of a run
that died before its clean-up (``remove_stale``). Needs root and iproute2's ``ip``.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterable, Sequence
from pathlib import Path

# Namespace-local addresses: the same /24 in two runs (or on the machine itself) never meet.
SUBNET = "10.39.0"
PREFIX = "kdmh"
_STALE = re.compile(rf"^{PREFIX}-(\d+)-[0-9a-f]+-[\w-]+$")


def ip(*args: str) -> str:
    r = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30)
    if r.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {r.stderr.strip()}")
    return r.stdout


def namespaces() -> list[str]:
    return [line.split()[0] for line in ip("netns", "list").splitlines() if line.strip()]


def ns_pids(ns: str) -> set[int]:
    try:
        return {int(p) for p in ip("netns", "pids", ns).split()}
    except RuntimeError:
        return set()


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            ppid = int((d / "stat").read_text().rpartition(")")[2].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        kids.setdefault(ppid, []).append(int(d.name))
    return kids


def with_descendants(pids: Iterable[int]) -> set[int]:
    """``pids`` and every process below them (a sandboxed runner is in a new session and a
    namespace of its own, so neither the process group nor ``ip netns pids`` finds it)."""
    kids = _children()
    out: set[int] = set()
    todo = list(pids)
    while todo:
        p = todo.pop()
        if p not in out:
            out.add(p)
            todo.extend(kids.get(p, []))
    return out


def signal_all(pids: Iterable[int], sig: int) -> None:
    for p in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(p, sig)


def freeze(roots: Iterable[int]) -> set[int]:
    """SIGSTOP ``roots`` and all their descendants, until no new process appears."""
    stopped: set[int] = set()
    while True:
        found = with_descendants(roots) - stopped
        if not found:
            return stopped
        signal_all(found, signal.SIGSTOP)
        stopped |= found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def wait_gone(pids: Iterable[int], timeout: float = 15) -> set[int]:
    """The pids still alive (not zombies) after ``timeout``."""
    left = set(pids)
    end = time.monotonic() + timeout
    while left and time.monotonic() < end:
        left = {p for p in left if alive(p)}
        time.sleep(0.1)
    return left


def remove_stale() -> None:
    """Namespaces and folders of an earlier run whose test process is gone (killed before its
    clean-up)."""
    for ns in namespaces():
        m = _STALE.match(ns)
        if m and not alive(int(m.group(1))):
            signal_all(with_descendants(ns_pids(ns)), signal.SIGKILL)
            with contextlib.suppress(RuntimeError):
                ip("netns", "delete", ns)
    for d in Path(tempfile.gettempdir()).glob(f"{PREFIX}-*"):
        m = _STALE.match(d.name)
        if m and not alive(int(m.group(1))):
            shutil.rmtree(d, ignore_errors=True)


class Lan:
    """A switch and hosts on it; ``add(name, last_octet)`` returns the host's address."""

    def __init__(self) -> None:
        self.tag = f"{PREFIX}-{os.getpid()}-{uuid.uuid4().hex[:6]}"
        self.switch = f"{self.tag}-lan"
        self.hosts: dict[str, str] = {}  # namespace -> address
        ip("netns", "add", self.switch)
        ip("-n", self.switch, "link", "add", "br0", "type", "bridge")
        ip("-n", self.switch, "link", "set", "br0", "up")

    def ns(self, name: str) -> str:
        return f"{self.tag}-{name}"

    def add(self, name: str, octet: int) -> str:
        ns, addr = self.ns(name), f"{SUBNET}.{octet}"
        ip("netns", "add", ns)
        self.hosts[ns] = addr
        port = f"p{name}"  # the switch's port for this host
        ip(*f"-n {ns} link add eth0 type veth peer name {port} netns {self.switch}".split())
        ip("-n", self.switch, "link", "set", port, "master", "br0")
        ip("-n", self.switch, "link", "set", port, "up")
        ip("-n", ns, "addr", "add", f"{addr}/24", "dev", "eth0")
        ip("-n", ns, "link", "set", "eth0", "up")
        ip("-n", ns, "link", "set", "lo", "up")
        return addr

    def spawn(
        self,
        name: str,
        argv: Sequence[str],
        env: dict[str, str],
        log: Path,
        user: str | None = None,
        cwd: Path | None = None,
    ) -> subprocess.Popen[bytes]:
        """``argv`` on host ``name`` (``ip netns exec``), in a session of its own, as ``user``."""
        as_user = ["runuser", "-u", user, "--"] if user else []
        with open(log, "ab") as out:
            return subprocess.Popen(
                ["ip", "netns", "exec", self.ns(name), *as_user, *argv],
                env=env,
                cwd=cwd,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def run(
        self, name: str, argv: Sequence[str], env: dict[str, str], cwd: Path, timeout: float
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["ip", "netns", "exec", self.ns(name), *argv],
            env=env,
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def processes(self, name: str) -> set[int]:
        """Every process of host ``name``: those in its namespace and all below them."""
        return with_descendants(ns_pids(self.ns(name)))

    def close(self) -> None:
        """Kill what runs on the hosts, remove the namespaces (and with them the links)."""
        for ns in [*self.hosts, self.switch]:
            pids = with_descendants(ns_pids(ns))
            signal_all(pids, signal.SIGKILL)
            wait_gone(pids, 10)
        for ns in [*self.hosts, self.switch]:
            with contextlib.suppress(RuntimeError):
                ip("netns", "delete", ns)
