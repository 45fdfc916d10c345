"""The referee's end of the runner protocol (messages.py): start it sandboxed, talk JSON lines,
time out."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import select
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import cast

from judge import languages
from judge.build import cachepaths, tritoncache
from judge.sandbox import bubblewrap, ledger, messages

log = logging.getLogger(__name__)


class RunnerDied(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class RunnerTimeout(Exception):
    pass


def default_limits(device: str, host_memory_mb: int = 8192, cpu_s: int = 3600) -> bubblewrap.Limits:
    # No address-space limit where the CUDA driver reserves huge virtual ranges: there the
    # data limit bounds host memory (KERNELDOJO_GPU_DATA_LIMIT=0 turns it off).
    cap = host_memory_mb + 4096
    gpu_data = device == "cuda" and os.environ.get("KERNELDOJO_GPU_DATA_LIMIT", "1") != "0"
    return bubblewrap.Limits(
        cpu_s=cpu_s,
        address_space_mb=cap if device == "cpu" else None,
        data_mb=cap if gpu_data else None,
    )


def runner_env(device: str) -> dict[str, str]:
    # The worker's Triton cache is bound read-only on every device: a GPU runner reads it
    # (tritoncache.install_in_runner); under the interpreter nothing does, but the sandbox is the
    # same, so the CPU suite shows that a submission cannot write there.
    env = cachepaths.runner_env()
    for lang in languages.all():  # each language's own (its interpreter or simulator on the CPU)
        env.update(lang.runner_env(device))
    return env


RUNNER_SETTLE_S = 180.0  # the longest a spare's device start-up is waited for (under ncu: ~14 s)
IDLE_WARM_S = 0.2  # how often an idle pool lets finished spares start their device
# After a grading any spare may start its device; from IDLE_START_WINDOW_S to IDLE_LONG_S after
# it, only the runner handed out next (a submission is likeliest then: learners resubmit within
# seconds); after a longer idle spell, any again (else a burst after it would wait for them).
IDLE_START_WINDOW_S = 0.5
IDLE_LONG_S = 3.0
# The longest a runner kept under a tool (profile/spare.py) is waited for: its start took 3-10 s
# on an H100 (benchmarks/README.md, 'Profile and sanitize spares'); one that takes longer is
# closed and the next run starts its own.
TOOL_READY_S = 60.0


def _tool_time_left(client: RunnerClient) -> float:
    """How long a kept runner may still take to be ready (its imports included when it has not
    been told to start yet)."""
    if client.init_at is None:
        return TOOL_READY_S
    return max(0.0, client.init_at + TOOL_READY_S - time.monotonic())


def pool_size(device: str) -> int:
    """Runners kept ready (``KERNELDOJO_POOL_SIZE``), each a process with torch imported."""
    try:
        return max(1, int(os.environ.get("KERNELDOJO_POOL_SIZE", "")))
    except ValueError:
        # A runner takes ~6.4 s to start on a GPU host (5 s import torch, 1.4 s CUDA context)
        # and a small grading ~1.1 s: with submissions 0.5 s apart, three in flight left the
        # benchmarks of a vector add waiting 0.43 s (median) for a spare's CUDA start-up on an
        # H100 (benchmarks/README.md, 'Runner start-up'). Four start one every 1.6 s.
        return 4 if device == "cuda" else 1


class RunnerPool:
    """Runners started ahead of demand (torch imported, CUDA initialised), each used once.

    A fresh process per submission keeps submissions apart; starting it before it is needed
    takes the ~5 s of ``import torch`` and CUDA start-up off the learner's wait.

    A replacement starts as soon as a runner is taken, but it only imports (CPU work, no GPU)
    until ``warm()``: the grader calls that once a grading is over, so no CUDA context is ever
    created while a submission is being timed.
    """

    def __init__(self, device: str, size: int | None = None) -> None:
        self.device = device
        self.size = size if size is not None else pool_size(device)
        self._ready: deque[RunnerClient] = deque()
        self._retiring: list[threading.Thread] = []
        self._refilling: threading.Thread | None = None  # the replacement being spawned
        # Runners started under a tool ahead of demand (profile/spare.py), by the tool's key:
        # warmed, settled and closed with the pool's own, so none starts its device mid-timing.
        self._kept: dict[str, RunnerClient] = {}
        self._lock = threading.RLock()  # the spares, between a grading and the idle warmer
        self._busy = 0  # gradings between acquire() and done()
        self._idle_since = time.monotonic()  # when the last grading ended
        self._closed = threading.Event()
        if device == "cuda":
            tritoncache.prime()  # before the runners' CUDA start-up reads what it compiles
        self._fill()
        if device == "cuda":
            # A spare whose imports finish during a grading would wait for the next grading's
            # end to start its CUDA context, and the grading after that would wait ~0.85 s for
            # it (the latency suite's "sandbox_start"; benchmarks/README.md, 'Runner start-up').
            # Between gradings this thread lets spares start as soon as they can; gradings still
            # settle the pool before anything is timed.
            threading.Thread(target=self._idle_warmer, name="runner-warmer", daemon=True).start()

    def _idle_warmer(self) -> None:
        while not self._closed.wait(IDLE_WARM_S):
            self.warm_if_idle()

    def warm_if_idle(self) -> None:
        """``warm`` unless a grading holds a runner (the idle thread's round). Between
        ``IDLE_START_WINDOW_S`` and ``IDLE_LONG_S`` after a grading only the runner handed out
        next may start its device: a start (0.6-0.9 s on an H100) begun just before a
        submission arrives is waited for before its calibration (``settle``: 0.08-0.13 s of
        vector-add's 0.52 s verdicts 1.5 s apart; benchmarks/README.md, 'Runner start-up'); the
        others start when the next grading ends, or once the pool has been idle longer."""
        with self._lock:
            if self._busy == 0 and not self._closed.is_set():
                idle = time.monotonic() - self._idle_since
                self._warm(now=False, late=IDLE_START_WINDOW_S < idle < IDLE_LONG_S)

    def _fill(self) -> None:
        while len(self._ready) < self.size:
            self._ready.append(self._spawn())

    def _spawn(self) -> RunnerClient:
        """A new spare's process (it starts importing at once)."""
        workdir = Path(tempfile.mkdtemp(prefix="kerneldojo-"))
        workdir.chmod(0o777)
        return RunnerClient(
            workdir,
            self.device,
            default_limits(self.device),
            runner_env(self.device),
            owns_workdir=True,
        )

    def acquire(self) -> RunnerClient:
        """A started runner (maybe still importing); a replacement starts at once. The pool
        counts a grading as running until ``done``."""
        with self._lock:
            self._busy += 1
            return self._acquire()

    @contextlib.contextmanager
    def holding(self) -> Iterator[None]:
        """A grading that takes no runner from the pool (a profile): the spares start their
        devices only once it is over, and none is starting one when it begins."""
        with self._lock:
            self._busy += 1
        try:
            self.settle(RUNNER_SETTLE_S, warm=False)
            yield
        finally:
            self.done()

    def done(self) -> None:
        """A grading that ``acquire``d is over: spares may create their CUDA contexts now."""
        with self._lock:
            self._busy = max(0, self._busy - 1)
            self._idle_since = time.monotonic()
            self.warm()

    def _acquire(self) -> RunnerClient:
        while self._ready:
            client = self._ready.popleft()
            if client.proc.popen.poll() is None:
                break
            client.close()
        else:
            self._fill()
            client = self._ready.popleft()
        self._refill_soon()
        return client

    def _refill_soon(self) -> None:
        """Spawn the replacement in the background: starting a sandboxed process (a median of
        14 ms on a loaded 2-core machine, 2026-11-25) was on every grading's path, before the
        submission's own work could begin."""

        def refill() -> None:
            # Spawned outside the lock (~50 ms on the H100 host; benchmarks/README.md, 'Runner
            # start-up'): the grading that took the runner settles the pool just after, and
            # would wait for the lock.
            with self._lock:
                missing = 0 if self._closed.is_set() else self.size - len(self._ready)
            spawned: list[RunnerClient] = []
            try:
                for _ in range(missing):
                    if self._closed.is_set():
                        break
                    spawned.append(self._spawn())
            except Exception:  # those already started still join the pool (or are closed)
                log.exception("a spare runner could not be started")
            with self._lock:
                while spawned and len(self._ready) < self.size and not self._closed.is_set():
                    self._ready.append(spawned.pop(0))
            for extra in spawned:  # closed meanwhile, or filled by a synchronous acquire
                extra.close()

        t = threading.Thread(target=refill, name="runner-refill", daemon=True)
        t.start()
        self._refilling = t

    def refilled(self, timeout_s: float = 60.0) -> None:
        """Wait until the replacement of the last runner taken has been spawned."""
        t = self._refilling
        if t is not None and t is not threading.current_thread():
            t.join(timeout_s)

    def warm(self, now: bool = False) -> None:
        """Let the runners that have finished importing create their CUDA contexts; call it
        when nothing is being timed. ``now``: every runner, as soon as its imports are done
        (at start-up, before any grading)."""
        with self._lock:
            self._warm(now)

    def _warm(self, now: bool, late: bool = False) -> None:
        for i, client in enumerate(list(self._ready)):
            if not client.init_sent and not (late and i > 0):  # late: the next one only
                self._start(client, now)
        # Runners kept under a tool start their devices one at a time: on an H100 a runner under
        # compute-sanitizer whose CUDA start-up overlapped that of one under ncu never finished
        # it (3 of 4 fresh pools), while each alone took 3-10 s (benchmarks/README.md, 'Profile
        # and sanitize spares').
        if not self._tools_starting():
            for client in list(self._kept.values()):
                if not client.init_sent and self._start(client, now):
                    break

    def _start(self, client: RunnerClient, now: bool) -> bool:
        """Tell a spare to start its device once it has imported (``now``: at once); whether
        it was told."""
        try:
            if now or client.poll_imported():
                client.start_device()
                return True
        except RunnerDied:
            self._forget(client)
        return False

    def _tools_starting(self) -> list[RunnerClient]:
        """The kept runners starting their devices now; one past its time (``TOOL_READY_S``
        from its start) or dead is closed."""
        starting = []
        for key, client in list(self._kept.items()):
            if not client.init_sent:
                continue
            try:
                if client.poll_ready():
                    continue
            except RunnerDied as e:
                self._drop_tool(key, client, f"it died starting: {e.message}")
                continue
            if _tool_time_left(client) <= 0:
                self._drop_tool(key, client, f"not ready {TOOL_READY_S:.0f} s after its start")
                continue
            starting.append(client)
        return starting

    def _drop_tool(self, key: str, client: RunnerClient, why: str) -> None:
        log.warning("the runner kept under %s is closed: %s", key, why)
        self._forget(client)

    def _forget(self, client: RunnerClient) -> None:
        """A spare that died starting: out of the pool, its processes gone."""
        if client in self._ready:
            self._ready.remove(client)
        self._kept = {k: c for k, c in self._kept.items() if c is not client}
        client.close()

    def keep(self, key: str, client: RunnerClient) -> None:
        """Hold ``client`` (started under a tool) until ``take(key)``; one per key."""
        with self._lock:
            old = self._kept.pop(key, None)
            if self._closed.is_set():
                client.close()
            else:
                self._kept[key] = client
        if old is not None:
            old.close()

    def take(self, key: str) -> RunnerClient | None:
        """The runner kept for ``key`` if it is alive (maybe still importing), else None."""
        with self._lock:
            client = self._kept.pop(key, None)
        if client is not None and client.proc.popen.poll() is not None:
            client.close()
            return None
        return client

    def retire(self, client: RunnerClient) -> None:
        """Kill a used runner's process tree in the background (``settle`` waits for it)."""
        t = threading.Thread(target=client.close, name="runner-reaper", daemon=True)
        t.start()
        self._retiring.append(t)

    def reap(self, timeout_s: float = 60.0) -> None:
        """Wait until every retired runner's processes are gone."""
        deadline = time.monotonic() + timeout_s
        for t in self._retiring:
            t.join(max(0.0, deadline - time.monotonic()))
        self._retiring = [t for t in self._retiring if t.is_alive()]

    def settle(self, timeout_s: float, warm: bool = True) -> None:
        """Wait until no runner is starting its device or exiting: with ``warm``, every runner
        is ready; without, those still importing are left alone (they do not touch the GPU)."""
        self.reap(timeout_s)
        if warm:
            self.refilled(timeout_s)
        with self._lock:
            self._settle(timeout_s, warm)

    def _settle(self, timeout_s: float, warm: bool) -> None:
        for client in list(self._ready):
            if not (warm or client.init_sent):
                continue
            try:
                client.wait_ready(timeout_s)
            except (RunnerDied, RunnerTimeout):
                self._forget(client)
        self._settle_kept(timeout_s, warm)

    def settle_kept(self, timeout_s: float) -> None:
        """Wait until no runner kept under a tool is starting its device: a run under a tool
        starts (or takes) its runner only then (profile/spare.py)."""
        with self._lock:
            self._settle_kept(timeout_s, warm=False)

    def _settle_kept(self, timeout_s: float, warm: bool) -> None:
        # One at a time (see _warm): those already starting first, each waited for only until
        # TOOL_READY_S after its start.
        for key, client in sorted(self._kept.items(), key=lambda kv: not kv[1].init_sent):
            if not (warm or client.init_sent):
                continue
            try:
                client.wait_ready(min(timeout_s, _tool_time_left(client)))
            except RunnerDied as e:
                self._drop_tool(key, client, f"it died starting: {e.message}")
            except RunnerTimeout:
                self._drop_tool(key, client, f"not ready {TOOL_READY_S:.0f} s after its start")

    def close(self) -> None:
        self._closed.set()
        with self._lock:
            while self._ready:
                self._ready.popleft().close()
            for client in self._kept.values():
                client.close()
            self._kept = {}
        self.reap()


class RunnerClient:
    def __init__(
        self,
        workdir: Path,
        device: str,
        limits: bubblewrap.Limits,
        env: dict[str, str],
        owns_workdir: bool = False,
        wrap: Sequence[str] = (),
        read_only: Sequence[str] = (),
    ) -> None:
        """``wrap``: a tool's command line in front of the runner's, in the same sandbox (ncu,
        compute-sanitizer: profile/); ``read_only``: more host folders it sees read-only."""
        self.workdir = workdir
        self.owns_workdir = owns_workdir
        self.ready = False
        p2c_r, self._p2c_w = os.pipe()
        self._c2p_r, c2p_w = os.pipe()
        self.log_path = workdir / "output.log"
        # The work folder is writable by the submission: the log is opened once, by descriptor,
        # never by name again (a symlink planted there must not make the referee read a host file).
        self._log_fd = os.open(
            self.log_path, os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644
        )
        wd = bubblewrap.SANDBOX_WORKDIR if bubblewrap.mode() != "off" else str(workdir)
        argv = [
            *wrap,
            sys.executable,
            "-m",
            "judge.sandbox.runner",
            "--ctl-in",
            str(p2c_r),
            "--ctl-out",
            str(c2p_w),
            "--workdir",
            wd,
            "--device",
            device,
        ]
        shared, by_source = env.get(cachepaths.SHARED_ENV), env.get(cachepaths.ROOT_ENV)
        # The kernel ledger (ledger.py): the driver loads it into a GPU runner; a tool (ncu,
        # compute-sanitizer) brings its own injection, so none under one.
        self.ledger: ledger.Reader | None = None
        self.ledger_why = ""
        fds = [p2c_r, c2p_w]
        if device == "cuda" and not wrap:
            built = ledger.library()
            self.ledger_why = built.why
            if built.path is not None:
                ledger_r, ledger_w = os.pipe()
                self.ledger = ledger.Reader(ledger_r)
                fds.append(ledger_w)
                env = {**env, **ledger.runner_env(ledger_w, built.path)}
                read_only = (*read_only, os.path.dirname(built.path))
        policy = bubblewrap.Policy(
            workdir=workdir,
            gpu=device == "cuda",
            env=env,
            limits=limits,
            read_only=((shared,) if shared else ()) + tuple(read_only),
            read_only_unlisted=(by_source,) if by_source else (),
        )
        try:
            self.proc = bubblewrap.Process(
                argv, policy, stdout=self._log_fd, stderr=self._log_fd, pass_fds=tuple(fds)
            )
        finally:
            for fd in fds:
                os.close(fd)
        self._buf = b""
        self.frozen = False
        self.imported = False
        self.init_s: float | None = None  # the runner's device start-up, however long ago
        self.init_at: float | None = None  # when it was told to start its device

    @property
    def init_sent(self) -> bool:
        """Whether the runner has been told to start its device."""
        return self.init_at is not None

    def start_device(self) -> None:
        """Tell the runner to initialise its device once its imports are done (no wait)."""
        if self.init_at is None:
            self.init_at = time.monotonic()
            self.send(messages.Init(op="init"))

    def poll_imported(self) -> bool:
        """Whether the runner has finished its imports (it says so once); never blocks."""
        if not self.imported and not self.ready:
            try:
                self._expect(self.recv(0.0), "imported")
            except RunnerTimeout:
                return False
        return self.imported or self.ready

    def poll_ready(self) -> bool:
        """Whether the runner has initialised its device (after ``start_device``); never
        blocks."""
        if self.ready:
            return True
        if not self.init_sent or not self.poll_imported():
            return False
        try:
            self._expect(self.recv(0.0), "ready")
        except RunnerTimeout:
            return False
        return True

    def wait_ready(self, timeout_s: float) -> None:
        """Block until the runner has imported torch and initialised its device."""
        if self.ready:
            return
        self.start_device()
        deadline = time.monotonic() + timeout_s
        if not self.imported:
            self._expect(self.recv(timeout_s), "imported")
        msg = self.recv(max(0.0, deadline - time.monotonic()))
        self._expect(msg, "ready")

    def _expect(self, msg: messages.Received, op: str) -> None:
        if msg.get("op") != op:
            raise RunnerDied(f"unexpected message from the starting runner: {msg}")
        if op == "imported":
            self.imported = True
            return
        self.ready = True
        init_s = msg.get("init_s")
        self.init_s = float(init_s) if isinstance(init_s, int | float) else None

    def send(self, msg: messages.Request, *, thaw_last: bool = False) -> None:
        """Write one message; a frozen runner is thawed first, or just after (``thaw_last``)."""
        if self.frozen and not thaw_last:
            self.thaw()
        try:
            os.write(self._p2c_w, (json.dumps(msg) + "\n").encode())
        except BrokenPipeError as e:
            raise RunnerDied(self._death()) from e
        if self.frozen:
            self.thaw()

    def recv(self, timeout_s: float) -> messages.Received:
        """The runner's next reply, any JSON object: the caller validates what it reads."""
        deadline = time.monotonic() + timeout_s
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            r, _, _ = select.select([self._c2p_r], [], [], max(0.0, left))
            if not r:
                if left <= 0:
                    raise RunnerTimeout()
                continue
            chunk = os.read(self._c2p_r, 1 << 16)
            if not chunk:
                raise RunnerDied(self._death())
            self._buf += chunk
            if len(self._buf) > 1 << 20:
                raise RunnerDied("the runner sent an oversized message")
        line, self._buf = self._buf.split(b"\n", 1)
        try:
            msg = json.loads(line)
        except ValueError as e:
            raise RunnerDied(f"garbled message from the runner: {line[:200]!r}") from e
        if not isinstance(msg, dict):
            raise RunnerDied("garbled message from the runner")
        return cast(messages.Received, msg)

    def request(self, timeout_s: float, msg: messages.Request) -> messages.Received:
        self.send(msg)
        return self.recv(timeout_s)

    def freeze(self) -> None:
        self.proc.freeze()
        self.frozen = True

    def thaw(self) -> None:
        self.proc.thaw()
        self.frozen = False

    def _death(self) -> str:
        try:
            code = self.proc.popen.wait(timeout=5)
        except Exception:
            return "the runner stopped answering"
        if code < 0:
            return f"the process was killed by signal {signal.Signals(-code).name}"
        # bwrap reports a signal death of its child as 128 + signal
        if code > 128 and code - 128 in signal.Signals._value2member_map_:
            return f"the process was killed by signal {signal.Signals(code - 128).name}"
        return f"the process exited with status {code} before finishing"

    def output(self, limit: int = 16 << 10) -> str:
        try:
            data = os.pread(self._log_fd, limit + 1, 0)
        except OSError:
            return ""
        text = data[:limit].decode("utf-8", "replace")
        return text + ("\n[output truncated]" if len(data) > limit else "")

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self._p2c_w)
        self.proc.kill()
        for fd in (self._c2p_r, self._log_fd):
            with contextlib.suppress(OSError):
                os.close(fd)
        if self.ledger is not None:
            self.ledger.close()
        if self.owns_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)
