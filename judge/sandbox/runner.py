"""The runner: the sandboxed child process that loads a submission and calls ``solve``.

Everything in this process is untrusted once the submission is loaded: it may patch this
module, the timer, torch. So the runner only *computes*; the referee (grader.py) generates
inputs, keeps the expected outputs, checks every output and cross-checks every time.

Protocol: JSON lines, one message each (messages.py). The referee writes on fd ``--ctl-in``;
the runner answers on ``--ctl-out``. The submission's own stdout/stderr go to a log file the
referee reads.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, cast

from judge import languages
from judge.languages.runtime import Loaded, RunContext, SubmissionError, submission_traceback
from judge.sandbox import buffers, messages, rules


class Runner:
    def __init__(self, workdir: Path, device: str, out: Any) -> None:
        self.workdir = workdir
        self.device = device
        self.out = out
        self.loaded: Loaded | None = None
        self.language = ""
        self.filename = "solution.py"  # the learner's file, named at load
        self.precompiles = False
        self.compiles_ahead = False
        self.forbid_library = True
        self.cases: dict[str, list[Any]] = {}
        self.mappings: dict[str, list[int]] = {}
        self.private: dict[str, Any] = {}  # copies of its own under a tool (profile/instrument.py)
        self.torch: Any = None
        self.hold: Any = None
        self.gate: Any = None  # gate.RunnerGate, once the referee shared its flags
        self.inp: Any = None  # the control pipe from the referee (a barrier reads it: comm.py)

    def reply(self, msg: messages.Reply) -> None:
        """Answer the referee (messages.py): one message, written by ``send``."""
        self.send(**msg)

    def send(self, **msg: Any) -> None:
        self.out.write(json.dumps(msg) + "\n")
        self.out.flush()

    # -- set-up, before any submission code runs -------------------------------------------
    def preload(self) -> None:
        """The slow imports, which touch no GPU."""
        import torch

        self.torch = torch
        # The rule's first torch op under a dispatch mode imports much of torch (1.7 s on a
        # CI core, 4.5-6 s in the sandbox on a GPU host): paid here, ahead of demand.
        with rules.no_library_compute():
            torch.empty(1)
        if self.device == "cpu":
            from judge.sandbox import interpreter

            interpreter.install()  # the interpreter as an H100 (interpreter.py)
            from judge.profile import bounds

            bounds.install()  # every access checked against the launch's tensors
        if self.device == "cuda":
            import triton  # noqa: F401

            from judge.build import tritoncache
            from judge.timing import hold  # noqa: F401

            tritoncache.install_in_runner(self.workdir)

    def init_device(self) -> None:
        torch = self.torch
        if self.device == "cuda":
            torch.cuda.init()
            torch.zeros(1, device="cuda")
            torch.cuda.synchronize()
            # Asked by many submissions (tutorials read the SM count at import or in solve):
            # torch's first device_count() initialises NVML, which took 4.5 s in the sandbox on
            # an H100 host. Done here, ahead of demand, it is cached for the grading.
            props = torch.cuda.get_device_properties(torch.cuda.current_device())
            # A Triton kernel that needs more shared memory than a block may have fails at once,
            # before ptxas (stages.py): the GPU's answer, without the slowest compile step.
            from judge.build import stages

            stages.install(getattr(props, "shared_memory_per_block_optin", None))
            from judge.timing.hold import Hold

            self.hold = Hold(torch)

    def open_gate(self, msg: messages.Gate) -> None:
        """The referee's gate flags (gate.py), before any submission code exists."""
        from judge.timing.gate import RunnerGate

        self.gate = RunnerGate(msg["desc"], self.workdir)

    def _gated(self, msg: messages.Ping | messages.Call) -> dict[str, Any]:
        """``Hold.time_call``'s gate arguments for a call the referee gates."""
        call = msg.get("gate")
        if self.gate is None or not isinstance(call, int):
            return {}
        return {"gate": (self.gate, call), "launched": self._launched}

    def _launched(self) -> None:
        self.reply(messages.Launched(op="launched"))

    def ping(self, msg: messages.Ping) -> None:
        """A timed call with nothing in it, through the referee's gate, before any submission
        code exists: the referee calibrates its overheads with it (calibration.py)."""
        ms = None
        if self.device == "cuda":
            ms = self.hold.time_call(lambda: None, **self._gated(msg)).device_ms
        self.reply(messages.Pong(op="pong", ms=ms))

    # -- loading ----------------------------------------------------------------------------
    def load(self, msg: messages.Load) -> None:
        self.language = msg["language"]
        if self.device == "cuda":
            from judge.build import sourcecache

            sourcecache.note_in_runner(dict(msg))  # before the submission compiles anything
            try:  # an autotuner's choices kept with the kernels (autotune.py)
                from triton import knobs

                knobs.autotuning.cache = True
            except (ImportError, AttributeError):
                pass
        self.forbid_library = bool(msg.get("forbid_library", True))
        path = self.workdir / msg["path"]
        self.filename = path.name
        budget = msg.get("gpu_budget_mb")
        if self.device == "cuda" and isinstance(budget, int):
            # torch's allocator refuses past the budget with a clear OutOfMemoryError; the
            # referee measures the process all the same (gpumem.py), cudaMalloc included.
            torch = self.torch
            total = torch.cuda.get_device_properties(0).total_memory
            have = torch.cuda.memory_reserved()
            torch.cuda.set_per_process_memory_fraction(min(1.0, (have + (budget << 20)) / total))
        lang = languages.require(self.language)
        ctx = RunContext(
            device=self.device,
            argtypes=list(msg.get("argtypes", [])),
            forbid_library=self.forbid_library,
            torch=self.torch,
            classify=classify,
            roles=[str(r) for r in msg.get("roles", [])],
        )
        self.loaded = lang.load(path, ctx)
        self.precompiles = lang.precompiles
        self.compiles_ahead = lang.compiles_ahead

    def precompile(self, msg: messages.Precompile) -> None:
        """The Triton kernels of every case compiled ahead, in parallel (precompile.py)."""
        from judge.build import precompile

        if self.compiles_ahead and self.device == "cuda" and self.loaded is not None:
            t0 = time.monotonic()
            try:  # only for speed: whatever fails here, the real calls compile and fail as they would
                sizes, failed = self.loaded.compile_ahead(list(msg["cases"])), 0
            except Exception:
                sizes, failed = 0, 1
            self.reply(
                messages.Precompiled(
                    op="precompiled",
                    kernels=sizes,
                    failed=failed,
                    seconds=round(time.monotonic() - t0, 3),
                )
            )
            return
        if not self.precompiles or self.device != "cuda" or not precompile.available():
            self.reply(messages.Precompiled(op="precompiled", kernels=0, skipped=True))
            return

        def report(done: int, total: int) -> None:
            self.reply(messages.Progress(op="progress", kind="compile", done=done, total=total))

        counts = precompile.run(self._invoke, msg["cases"], self.torch, self.device, report)
        self.reply(cast(messages.Precompiled, {"op": "precompiled", **counts}))

    def bind(self, msg: messages.Bind) -> messages.Bound:
        args: list[Any] = []
        ptrs: list[int] = []
        for a in msg["args"]:
            if a["kind"] == "int":
                args.append(int(a["value"]))
            else:
                t, ptr = buffers.open_descriptor(a["desc"], self.workdir)
                args.append(t)
                if ptr:
                    ptrs.append(ptr)
        if "peers" in msg:  # a problem that spans GPUs: solve's last argument (comm.py)
            args.append(self._comm(msg, args, ptrs))
        self.mappings[msg["case"]] = ptrs
        reply = messages.Bound(op="bound")
        if msg.get("private") and self.device == "cuda":  # under ncu or compute-sanitizer
            from judge.profile.instrument import Private

            private = self.private[msg["case"]] = Private(self.torch, args)
            args, reply["allocations"] = private.args, private.allocations
        self.cases[msg["case"]] = args
        return reply

    def _comm(self, msg: messages.Bind, args: list[Any], ptrs: list[int]) -> Any:
        """``comm`` for this rank: its peers' buffers mapped here, its own as bound."""
        from judge.sandbox.comm import Comm

        rank, world = int(msg.get("rank", 0)), int(msg.get("world", 1))
        # Its own tensors, in the signature's order, as the referee lists every rank's buffers.
        own = [t for a, t in zip(msg["args"], args, strict=True) if a["kind"] == "tensor"]
        peers: list[dict[str, Any]] = []
        for r, descs in enumerate(msg.get("peers", [])):
            if r == rank:
                peers.append(dict(zip(descs, own, strict=True)))
                continue
            mapped = {}
            for name, desc in descs.items():
                t, ptr = buffers.open_descriptor(desc, self.workdir)
                mapped[name] = t
                if ptr:
                    ptrs.append(ptr)
            peers.append(mapped)
        return Comm(rank, world, peers, self._arrive)

    def _arrive(self, count: int) -> None:
        """``comm.barrier``: this rank's work done and said, then wait for the referee's go."""
        if self.device == "cuda":
            self.torch.cuda.synchronize()  # its writes are visible before the peers go on
        _flush_output()
        self.reply(messages.Arrived(op="barrier", count=count))
        line = self.inp.readline() if self.inp is not None else ""
        if not line:  # the referee is gone: so is this grading
            os._exit(0)
        if json.loads(line).get("op") != "release":
            raise RuntimeError("the judge's barrier got out of step (expected a release)")

    def unbind(self, msg: messages.Unbind) -> None:
        """Drop a case's buffers: an IPC mapping left open would block the referee's next one."""
        self.cases.pop(msg["case"], None)
        if (private := self.private.pop(msg["case"], None)) is not None:
            private.free()
        ptrs = self.mappings.pop(msg["case"], [])
        if ptrs:
            self.torch.cuda.synchronize()
            for ptr in ptrs:
                buffers.close_mapping(ptr)

    # -- calling ----------------------------------------------------------------------------
    def call(self, msg: messages.Call) -> None:
        call_args = self.cases[msg["case"]]
        timed = bool(msg.get("timed")) and self.device == "cuda"
        t = None
        notes: list[str] = []  # numeric warnings on the learner's lines, untimed calls only
        if timed:
            # Behind the referee's gate and the hold (gate.py, hold.py): the start event fires
            # when the queued work can begin, not when the host begins to launch it. The runner's
            # own ends (solve's stream, and after a device-wide synchronize) are reported; the
            # referee reports the larger of the stream time and its own floor
            # (timing.referee_floor), since everything in this process may be the submission's.
            # A CUDA submission's own errors are collected after both (_synchronize).
            t = self.hold.time_call(lambda: self._invoke(call_args), **self._gated(msg))
            self._synchronize()
        else:
            # Host side first: a Triton kernel's JIT happens here, so the referee can give it
            # the compile time limit and the kernel itself only the call limit. An autotuner
            # takes its first working config in tests and tunes fully in a benchmark's first
            # call (autotune.py).
            from judge.profile import instrument
            from judge.sandbox import numeric_notes

            profiled = bool(msg.get("nvtx")) and self.device == "cuda"  # under ncu
            if (private := self.private.get(msg["case"])) is not None:
                private.refresh()  # the referee filled the shared buffers since the last call
            with (
                self._autotune(msg.get("tune")),
                instrument.nvtx(self.torch, profiled),
                numeric_notes.notes(self.filename, notes),
            ):
                self._invoke(call_args)
            self._launched()
            self._synchronize()
            if private is not None:
                private.write_back()
        if t is None:
            warnings: list[str] = []
            findings: list[dict[str, Any]] = []
            if self.device == "cpu":  # what an H100 might refuse (interpreter.py)
                from judge.profile import bounds
                from judge.sandbox import interpreter

                warnings = interpreter.call_warnings()
                if self.loaded is not None:  # the language's own (Pallas' GPU lowering)
                    warnings += self.loaded.take_warnings()
                findings = bounds.take_findings()
            self.reply(messages.Done(op="done", warnings=warnings, findings=findings, notes=notes))
        else:
            self.reply(
                messages.Done(
                    op="done",
                    ms=t.stream_ms,
                    ms_sync=t.device_ms,
                    sm_ghz=t.sm_ghz,
                    sm_ghz_range=t.sm_ghz_range,
                )
            )

    def _autotune(self, mode: Any) -> Any:
        from judge.build import autotune

        if self.device != "cuda":
            # The interpreter times nothing: the first config that fits an H100 runs, and the
            # others are neither checked nor run (sixteen of them took the whole call limit).
            return autotune.policy(autotune.TUNE_FIRST)
        if not self.precompiles:
            return autotune.policy(None)

        def report(done: int, total: int) -> None:
            self.reply(messages.Progress(op="progress", kind="tune", done=done, total=total))

        return autotune.policy(mode if isinstance(mode, str) else None, report)

    def _invoke(self, call_args: list[Any]) -> None:
        assert self.loaded is not None
        self.loaded.invoke(call_args)

    def _synchronize(self) -> None:
        try:
            if self.device == "cuda" and self.loaded is not None:
                self.loaded.synchronize()
        finally:
            _flush_output()


def _flush_output() -> None:
    """The submission's output into the log now, while this process lives (the referee reads
    the log before it stops the runner, and ``os._exit`` flushes nothing): Python's stdout (a
    line without its newline) and C's stdio buffers, which hold host ``printf`` and the device
    ``printf`` that the CUDA runtime writes out at the synchronize."""
    with contextlib.suppress(Exception):  # the submission may have replaced sys.stdout
        sys.stdout.flush()
    ctypes.CDLL(None).fflush(None)


_JIT_ERRORS = (NameError, TypeError, AttributeError, SyntaxError, AssertionError, ImportError)


def classify(e: BaseException, filename: str) -> tuple[str, str]:
    """Verdict and message for an exception raised while calling solve."""
    if isinstance(e, SubmissionError):
        return e.verdict, e.message
    if isinstance(e, rules.LibraryComputeError):
        return "rejected", str(e)
    name = type(e).__name__
    module = type(e).__module__
    if "CompilationError" in name or module.startswith("triton.compiler"):
        return "compile_error", str(e)[-4000:]
    if name == "InterpreterError" and isinstance(e.__cause__, _JIT_ERRORS):
        # Under TRITON_INTERPRET=1 these are what the GPU compiler reports at JIT time; the
        # traceback runs into the kernel, so its last frame is the kernel's line.
        return "compile_error", submission_traceback(e, filename) + " (in a @triton.jit kernel)"
    text = str(e).lower()
    if (
        isinstance(e, MemoryError)
        or name == "OutOfMemoryError"
        or "out of memory" in text
        or "allocate memory" in text
    ):
        return "memory_limit_exceeded", submission_traceback(e, filename)
    return "runtime_error", submission_traceback(e, filename)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--ctl-in", type=int, required=True)
    p.add_argument("--ctl-out", type=int, required=True)
    p.add_argument("--workdir", type=Path, required=True)
    p.add_argument("--device", choices=["cpu", "cuda"], required=True)
    ns = p.parse_args()
    # stdout is the log file, block-buffered by default: a print would wait there until the
    # runner is stopped, and be lost. Line-buffered, each line reaches the log as it is printed.
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    inp = os.fdopen(ns.ctl_in, "r")
    out = os.fdopen(ns.ctl_out, "w")
    runner = Runner(ns.workdir, ns.device, out)
    runner.inp = inp
    runner.preload()
    runner.reply(messages.Imported(op="imported"))
    # A runner started ahead of demand stops here, with torch imported (seconds of CPU work, no
    # GPU), until the referee says "init": creating a CUDA context disturbs the GPU, so the
    # referee starts that only while nothing is being timed (see RunnerPool).
    first = inp.readline()
    if not first or json.loads(first).get("op") != "init":
        os._exit(0)
    t0 = time.monotonic()
    runner.init_device()
    runner.reply(
        messages.Ready(op="ready", pid=os.getpid(), init_s=round(time.monotonic() - t0, 4))
    )
    filename = ""
    for line in inp:
        msg = cast(messages.Request, json.loads(line))  # from the referee
        try:
            if msg["op"] == "ping":
                runner.ping(msg)
            elif msg["op"] == "gate":
                runner.open_gate(msg)
                runner.reply(messages.Gated(op="gated"))
            elif msg["op"] == "load":
                filename = msg["path"]
                runner.load(msg)
                runner.reply(messages.Loaded(op="loaded"))
            elif msg["op"] == "precompile":
                runner.precompile(msg)
            elif msg["op"] == "bind":
                runner.reply(runner.bind(msg))
            elif msg["op"] == "unbind":
                runner.unbind(msg)
                runner.reply(messages.Unbound(op="unbound"))
            elif msg["op"] == "call":
                runner.call(msg)
            elif msg["op"] == "exit":
                break
        except BaseException as e:
            verdict, message = classify(e, filename)
            runner.reply(messages.Error(op="error", verdict=verdict, message=message))
    os._exit(0)


if __name__ == "__main__":
    main()
