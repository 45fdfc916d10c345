"""The profiler's spare runner (profile/spare.py) as the runner pool holds it: kept, taken
once, warmed and settled with the pool's own spares, closed with the pool. CPU runners speak the
same protocol; the runner under ncu itself is started on a GPU (scripts/gpu_check.py,
benchmarks/profile_latency.py)."""

from __future__ import annotations

import dataclasses
import threading
import time
from pathlib import Path

import pytest

from judge.problem import loader
from judge.profile import spare, tools
from judge.sandbox.runner_client import RunnerClient, RunnerPool, default_limits, runner_env

START_S = 180.0


def _runner() -> RunnerClient:
    import tempfile

    workdir = Path(tempfile.mkdtemp(prefix="kerneldojo-test-spare-"))
    workdir.chmod(0o777)
    return RunnerClient(workdir, "cpu", default_limits("cpu"), runner_env("cpu"), owns_workdir=True)


def _gone(client: RunnerClient) -> bool:
    deadline = time.monotonic() + 30
    while client.proc.popen.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    return client.proc.popen.poll() is not None and not client.workdir.exists()


def test_a_kept_runner_is_warmed_settled_and_taken_once() -> None:
    pool = RunnerPool("cpu", size=1)
    kept = _runner()
    try:
        pool.keep("ncu:/x", kept)
        pool.settle(START_S)  # waits for the kept runner too: it is ready afterwards
        assert kept.init_sent and kept.ready
        assert pool.take("ncu:/other") is None
        assert pool.take("ncu:/x") is kept
        assert pool.take("ncu:/x") is None  # used once
    finally:
        kept.close()
        pool.close()


def test_a_dead_or_replaced_spare_is_never_handed_out() -> None:
    pool = RunnerPool("cpu", size=1)
    try:
        first, second = _runner(), _runner()
        pool.keep("k", first)
        pool.keep("k", second)  # one per key: the older one is closed
        assert _gone(first)
        second.proc.kill()
        second.proc.popen.wait(30)
        assert pool.take("k") is None  # died while waiting: not handed out, cleaned up
        assert _gone(second)
    finally:
        pool.close()


def test_closing_the_pool_closes_its_spare_and_refuses_new_ones() -> None:
    pool = RunnerPool("cpu", size=1)
    kept, late = _runner(), _runner()
    pool.keep("k", kept)
    pool.close()
    assert _gone(kept)
    pool.keep("k", late)  # a replacement that finished starting after the pool closed
    assert _gone(late)
    assert pool.take("k") is None


def test_no_spare_for_a_cpu_pool_or_a_problem_with_more_host_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pool = RunnerPool("cpu", size=1)
    tool = spare.ncu("/usr/bin/ncu")
    monkeypatch.setattr(spare, "kept_tools", lambda: [tool])  # as on a host with ncu
    try:
        p = loader.resolve("vector-add")
        assert spare.replenish(pool, [tool]) == []  # profiles need a GPU worker
        assert spare.take(pool, tool, p) is None
        big = dataclasses.replace(
            p, limits=dataclasses.replace(p.limits, host_memory_mb=spare.DEFAULT_HOST_MEMORY_MB + 1)
        )

        class GpuHolder:  # a GPU pool's bookkeeping: what take() asks of it
            device = "cuda"

            def __init__(self) -> None:
                self.asked: list[str] = []
                self.kept = threading.Event()

            def keep(self, key: str, client: RunnerClient) -> None:
                raise AssertionError("replenish is stopped before it starts a runner")

            def settle_kept(self, timeout_s: float) -> None:
                pass

            def take(self, key: str) -> RunnerClient | None:
                self.asked.append(key)
                return None

        monkeypatch.setattr(spare, "replenish", lambda pool, wanted: [])
        holder = GpuHolder()
        assert spare.take(holder, tool, big) is None and holder.asked == []
        assert spare.take(holder, tool, p) is None
        assert holder.asked == [tool.key]
        racecheck = spare.sanitizer("/usr/bin/compute-sanitizer", "racecheck")
        assert spare.take(holder, racecheck, p) is None and holder.asked == [tool.key]
    finally:
        pool.close()


def test_spares_are_off_when_asked_and_each_tool_writes_into_its_own_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("KERNELDOJO_PROFILE_SPARE", "0")
    assert spare.kept_tools() == []
    memcheck = spare.sanitizer("/opt/cuda/bin/compute-sanitizer", "memcheck")
    memcheck.prepare(tmp_path)
    memcheck.prepare(tmp_path)  # again: a taken spare's folder exists already
    assert (tmp_path / tools.SANITIZER_DIR).stat().st_mode & 0o777 == 0o777
    wrap = memcheck.wrap(tmp_path)
    assert wrap[0] == "/opt/cuda/bin/compute-sanitizer" and "memcheck" in wrap
    assert any(a.endswith(f"/{tools.SANITIZER_DIR}/memcheck.log") for a in wrap)
    assert dict(memcheck.env) == {"PYTORCH_NO_CUDA_MEMORY_CACHING": "1"}
    assert spare.ncu("/a/ncu").key != spare.ncu("/b/ncu").key != memcheck.key


def test_no_spare_starts_its_device_while_a_profile_holds_the_pool() -> None:
    """The replacement spare a profile starts must not create its CUDA context while ncu
    replays the profiled kernels: the pool counts the profile as a grading until it is over."""
    pool = RunnerPool("cpu", size=1)
    kept = _runner()
    try:
        with pool.holding():
            pool.keep("k", kept)
            deadline = time.monotonic() + START_S
            while not kept.poll_imported():
                assert time.monotonic() < deadline, "the kept runner never finished importing"
                time.sleep(0.1)
            pool.warm_if_idle()  # the GPU pool's idle thread's round
            assert not kept.init_sent
        assert kept.init_sent  # the profile is over: it may start now
    finally:
        kept.close()
        pool.close()


def test_a_taken_spare_is_closed_when_the_run_stops_before_using_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A profile of a source that does not compile stops in ToolRun.start before the spare is
    the session's runner: closing the run must still end the spare's process."""
    import torch

    from judge.grader import Stop
    from judge.profile.toolrun import ToolRun

    monkeypatch.setattr(torch, "zeros", lambda *a, **k: None)  # the referee's CUDA context
    taken = _runner()
    taken.wait_ready(START_S)  # a spare the pool had warmed: it waits on its pipe, idle
    run_ = ToolRun(
        loader.resolve("vector-add"),
        "",  # refused before it is compiled
        "triton",
        wrap=[],
        budget_s=60.0,
        progress=lambda e: None,
        runner=taken,
    )
    try:
        with pytest.raises(Stop):
            run_.start()
        run_.finish()
    finally:
        run_.close()
    try:
        assert taken.proc.popen.poll() is not None  # killed by close(), not left waiting
    finally:
        taken.proc.kill()


def test_a_problem_that_cannot_use_the_spare_leaves_it_in_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No spare was used, so none is replaced: a replacement would close the one kept (maybe
    started on its device already) and start another under the tool."""
    tool = spare.ncu("/usr/bin/ncu")
    monkeypatch.setattr(spare, "kept_tools", lambda: [tool])
    started: list[list[spare.Tool]] = []

    def replenish(pool: object, wanted: list[spare.Tool]) -> list[threading.Thread]:
        started.append(wanted)
        return []

    monkeypatch.setattr(spare, "replenish", replenish)
    p = loader.resolve("vector-add")
    big = dataclasses.replace(
        p, limits=dataclasses.replace(p.limits, host_memory_mb=spare.DEFAULT_HOST_MEMORY_MB + 1)
    )

    class GpuHolder:
        device = "cuda"

        def keep(self, key: str, client: RunnerClient) -> None:
            raise AssertionError("not called here")

        def settle_kept(self, timeout_s: float) -> None:
            pass

        def take(self, key: str) -> RunnerClient | None:
            return None

    assert spare.take(GpuHolder(), tool, big) is None
    assert started == []
    assert spare.take(GpuHolder(), tool, p) is None
    assert started == [[tool]]  # taken (or none waiting): a replacement starts


def test_a_taken_spare_is_closed_when_the_profile_fails_on_the_judges_side(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """An exception of ours inside the profile (here: no CUDA for the referee) reaches the
    grader's handler; the runner the profile took must not outlive it."""
    from judge.profile import profiler

    tool = spare.ncu("/usr/bin/ncu")
    monkeypatch.setattr(tools, "ncu_path", lambda: "/usr/bin/ncu")
    monkeypatch.setattr(spare, "kept_tools", lambda: [tool])
    monkeypatch.setattr(spare, "replenish", lambda pool, wanted: [])
    taken = _runner()
    taken.wait_ready(START_S)

    class GpuHolder:
        device = "cuda"

        def keep(self, key: str, client: RunnerClient) -> None:
            raise AssertionError("not called here")

        def settle_kept(self, timeout_s: float) -> None:
            pass

        def take(self, key: str) -> RunnerClient | None:
            return taken

    p = loader.resolve("vector-add")
    src = next(s for s in p.samples if s.language == "triton").path.read_text()
    try:
        with pytest.raises(BaseException):  # noqa: B017 - whatever the CPU's torch raises
            profiler.run(p, src, "triton", lambda e: None, tmp_path, GpuHolder())
        assert taken.proc.popen.poll() is not None
    finally:
        taken.proc.kill()


def test_a_spare_has_the_cpu_limit_of_the_longest_run_under_its_tool() -> None:
    from judge.profile import profiler, sanitize

    assert spare.ncu("/x/ncu").cpu_s == int(profiler.BUDGET_S) + 60
    assert spare.sanitizer("/x/cs", "memcheck").cpu_s == int(sanitize.BUDGET_S) + 60


def test_a_spare_that_died_waiting_is_replaced_by_a_runner_of_the_runs_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A spare whose start failed while it was kept (its process gone) is not the end of the
    run: it starts its own runner in the same work folder, which the prepared source is in."""
    import torch

    from judge.profile.toolrun import ToolRun

    monkeypatch.setattr(torch, "zeros", lambda *a, **k: None)  # the referee's CUDA context
    dead = _runner()
    dead.proc.kill()
    dead.proc.popen.wait(30)
    p = loader.resolve("vector-add")
    source = next(s for s in p.samples if s.path.name == "triton_simple.py").path.read_text()
    run_ = ToolRun(
        p, source, "triton", wrap=[], budget_s=60.0, progress=lambda e: None, runner=dead
    )
    started: list[list[Path]] = []

    def own() -> None:  # what a GPU worker would start: here, only what it would find
        started.append(sorted(run_.workdir.iterdir()))
        raise RuntimeError("stop here")

    monkeypatch.setattr(run_, "_start_own", own)
    try:
        with pytest.raises(RuntimeError, match="stop here"):
            run_.start()
        assert run_.spare is None and run_.session.channel.runner is None
        assert started and any(f.suffix == ".py" for f in started[0])  # the source is there
    finally:
        run_.close()
    assert not run_.workdir.exists()


def _imported(*clients: RunnerClient) -> None:
    deadline = time.monotonic() + START_S
    while not all(c.poll_imported() for c in clients):
        assert time.monotonic() < deadline, "a kept runner never finished importing"
        time.sleep(0.1)


def test_runners_kept_under_tools_start_their_devices_one_at_a_time() -> None:
    """On an H100 a runner under compute-sanitizer whose CUDA start overlapped one under ncu
    never finished it: the pool starts one kept runner's device, then the next."""
    pool = RunnerPool("cpu", size=1)
    first, second = _runner(), _runner()
    try:
        pool.keep("ncu:/x", first)
        pool.keep("memcheck:/y", second)
        _imported(first, second)
        pool.warm_if_idle()
        assert [first.init_sent, second.init_sent] == [True, False]
        deadline = time.monotonic() + START_S
        while not second.init_sent:
            assert time.monotonic() < deadline, "the second kept runner never started"
            pool.warm_if_idle()
            time.sleep(0.05)
        assert first.ready  # the first had finished when the second was let start
        pool.settle(START_S)
        assert second.ready
    finally:
        pool.close()


def test_a_kept_runner_that_does_not_start_in_time_is_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from judge.sandbox import runner_client

    monkeypatch.setattr(runner_client, "TOOL_READY_S", 0.0)
    pool = RunnerPool("cpu", size=1)
    slow = _runner()  # still importing: not ready within 0 s
    try:
        pool.keep("memcheck:/y", slow)
        t0 = time.monotonic()
        pool.settle(START_S)  # the pool's own runner is waited for, the kept one is not
        assert time.monotonic() - t0 < START_S
        assert pool.take("memcheck:/y") is None
        assert _gone(slow)
    finally:
        pool.close()


class _Kept:
    """A runner kept under a tool, as the pool sees it: imported, told to start, ready."""

    def __init__(self, name: str, log: list[str], stuck: bool = False) -> None:
        self.name, self.log, self.stuck = name, log, stuck
        self.init_sent, self.init_at, self.ready, self.closed = False, None, False, False

    def poll_imported(self) -> bool:
        return True

    def poll_ready(self) -> bool:
        return self.ready

    def start_device(self) -> None:
        if not self.init_sent:
            self.init_sent, self.init_at = True, time.monotonic()
            self.log.append(f"start {self.name}")

    def wait_ready(self, timeout_s: float) -> None:
        from judge.sandbox.runner_client import RunnerTimeout

        self.start_device()
        if self.stuck:
            raise RunnerTimeout()
        self.ready = True
        self.log.append(f"ready {self.name}")

    def close(self) -> None:
        self.closed = True


def test_a_kept_runner_stuck_starting_is_closed_and_the_next_one_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The idle warmer alone (no settle) closes a kept runner past its time after its start,
    so the one behind it is not held back for ever."""
    from judge.sandbox import runner_client

    log: list[str] = []
    stuck, second = _Kept("ncu", log, stuck=True), _Kept("memcheck", log)
    pool = RunnerPool("cpu", size=1)
    try:
        pool.keep("ncu:/x", stuck)  # type: ignore[arg-type]
        pool.keep("memcheck:/y", second)  # type: ignore[arg-type]
        pool.warm_if_idle()
        assert log == ["start ncu"]
        pool.warm_if_idle()
        assert log == ["start ncu"] and not stuck.closed  # still within its time
        monkeypatch.setattr(runner_client, "TOOL_READY_S", 0.0)
        pool.warm_if_idle()
        assert stuck.closed and pool.take("ncu:/x") is None
        assert log == ["start ncu", "start memcheck"]
    finally:
        pool.close()


def test_settling_waits_for_the_kept_runner_already_starting_before_starting_another() -> None:
    log: list[str] = []
    idle, starting = _Kept("ncu", log), _Kept("memcheck", log)
    pool = RunnerPool("cpu", size=1)
    try:
        pool.keep("ncu:/x", idle)  # type: ignore[arg-type]
        pool.keep("memcheck:/y", starting)  # type: ignore[arg-type]
        starting.start_device()  # started by the idle warmer; the other one kept first
        pool.settle(START_S)  # warm: every runner ready afterwards, one tool at a time
        assert log == ["start memcheck", "ready memcheck", "start ncu", "ready ncu"]
    finally:
        pool.close()
