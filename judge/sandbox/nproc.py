"""The process limit of every sandbox: RLIMIT_NPROC, set inside the sandbox before the command.

A fork bomb must not fill the host's PID table. Linux checks RLIMIT_NPROC on every fork and
every new thread (threads count: a task is a task) against a count kept per user, and since 5.14
per user *namespace* and user (``ucounts``), at each level of namespaces up to the host's. It
does not check root or a holder of CAP_SYS_RESOURCE or CAP_SYS_ADMIN; sandboxed code is neither
(bubblewrap.py). A hard limit can be lowered by its process but raised only with
CAP_SYS_RESOURCE, so a limit set before the submission's first instruction holds for it and for
everything it starts.

Where it is set matters, because of what it counts (measured on Linux 6.18, in
tests/judge/sandbox/test_process_limit.py):

* **Inside the sandbox**, by util-linux ``prlimit``, which sets the limit on itself and execs the
  command: after bwrap has made the user namespace (worker not root, or root without
  CAP_SYS_ADMIN) and after setpriv has dropped root to the sandbox uid (root worker).
* Not on bwrap, before it starts: for a worker that is not root, bwrap's own clone would then
  count every process of the worker's uid on the host (a web server of the same uid could stop
  every sandbox from starting), and a user namespace remembers its creator's limit as the ceiling
  for the host uid's count below it, so every sandbox would share one count.

What one count then covers:

* **User namespace** (the Docker images; root in a container without CAP_SYS_ADMIN): each
  sandbox has its own namespace, so the limit counts that sandbox's processes and threads only.
  Two fork bombs side by side each stop at the limit; neither touches the other's count.
* **Root worker with CAP_SYS_ADMIN** (setpriv, no user namespace): the count is the sandbox uid's
  on the whole host, every sandbox of that uid together (runners of the pool, the one grading,
  one being killed, a tool's spare, an nvcc build), and of every worker that shares the uid. So
  the limit there is ``SANDBOXES_PER_UID`` sandboxes' worth; a fork bomb can take the others'
  share until its time limit kills it (a spare then fails to start a thread, and is replaced).
  Give each worker its own uid (``KERNELDOJO_SANDBOX_UID``, SECURITY.md).

A pids cgroup per sandbox would count per sandbox in every mode, but creating one needs a
delegated cgroup (systemd ``Delegate=yes``, or a writable cgroupfs): a worker in a container
usually has neither, and this CI host has only cgroup v1's. Run the worker's service with a
pids limit on top (systemd ``TasksMax``, ``docker run --pids-limit``).

Size: a runner is ~20 threads on the CPU (torch imported), a GPU runner adds CUDA's threads,
Triton's 16 compile threads (build/precompile.py) with a ptxas or a gcc pipeline each, and
torch's or XLA's thread pools, sized by the host's CPUs (JAX starts two or three per CPU). So
``PER_SANDBOX`` plus ``PER_CPU`` per CPU, and ``KERNELDOJO_SANDBOX_NPROC`` to set it outright.
``KERNELDOJO_SANDBOX=off`` runs as the worker's own uid and sets no limit.
"""

from __future__ import annotations

import os
import shutil

ENV = "KERNELDOJO_SANDBOX_NPROC"
PER_SANDBOX = 512  # tasks of one sandbox, before those that scale with the host's CPUs
PER_CPU = 4  # more per CPU of the host (thread pools sized by the CPU count)
# Sandboxes of one sandbox uid at once, where one count covers them all (a root worker): the
# pool's 4 spares on a GPU, the runner in use, one being killed, a tool's spare, an nvcc build.
SANDBOXES_PER_UID = 8


class Unavailable(RuntimeError):
    pass


def limit(shared: bool) -> int:
    """RLIMIT_NPROC for sandboxed code; ``shared``: one count covers every sandbox of the uid."""
    raw = os.environ.get(ENV, "").strip()
    if raw:
        try:
            value = int(raw)
        except ValueError:
            raise Unavailable(f"{ENV}={raw!r}: a number is needed") from None
        if value < 1:
            raise Unavailable(f"{ENV}={value}: at least 1")
        return value
    one = PER_SANDBOX + PER_CPU * (os.cpu_count() or 1)
    return one * SANDBOXES_PER_UID if shared else one


def prlimit_path() -> str:
    found = shutil.which("prlimit") or shutil.which("prlimit", path="/usr/bin:/bin:/usr/sbin")
    if not found:
        raise Unavailable(
            "prlimit (util-linux) was not found: it sets the sandbox's process limit "
            "(install util-linux)"
        )
    return os.path.realpath(found)


def prefix(shared: bool, path: str | None = None) -> list[str]:
    """The command line in front of the sandboxed command (``path``: prlimit's, inside)."""
    n = limit(shared)
    return [path or prlimit_path(), f"--nproc={n}:{n}", "--"]
