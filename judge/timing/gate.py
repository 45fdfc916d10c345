"""The referee's own clock around every timed call: a gate between two CUDA contexts.

Whatever runs in the runner's process belongs to the submission once it is imported: its CUDA
events, ``elapsed_time``, the holding kernel, even the runtime's entry points (a shared
library's constructor can rewrite the GOT slots that import ``cudaEventElapsedTime``). So the
time a result reports must not be the runner's alone. The referee times each call with
events in *its own* CUDA context, ordered with the runner's work by two flags in device
memory that the referee owns and shares with the runner (CUDA IPC), driven by stream
memory operations (``cuStreamWaitValue32``/``cuStreamWriteValue32``):

    runner stream:   wait go >= g ; [hold, start event, solve's work, stream end] ; done := g
    referee stream:                 start event ; go := g ; wait done >= g ; end event

The runner queues its side first (its stream blocks on ``go``, so the host's launch time is
outside both clocks) and says "launched"; the referee then queues its side. On the GPU the
referee's start event fires, ``go`` lets the runner's stream run, and the referee's end event
fires only once ``done`` is written after the runner's work *and* the GPU has switched back to
the referee's context: two contexts never run at once (no MPS), so the switch waits until the
runner's context has nothing left running, side streams included, or its time slice ends.
The referee's bracket minus the bracket of an empty call (calibrated before any submission
code exists) bounds the call's GPU time from below; the grader reports the larger of it and
the runner's own time (timing.referee_floor). SECURITY.md states what a submission can still
gain: the calibration's jitter, and work it manages to run before ``go``.

A runner that never writes ``done`` (dead, hostile) must not leave the referee's stream
blocked: ``finish`` writes ``done`` itself from a second stream when the call is over.
"""

from __future__ import annotations

import ctypes
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from judge.sandbox import buffers

CU_STREAM_WAIT_VALUE_GEQ = 0x0
CU_STREAM_WRITE_VALUE_DEFAULT = 0x0
GO, DONE = 0, 64  # int32 slots, 256 bytes apart


def _memops() -> tuple[Any, Any]:
    """(cuStreamWaitValue32, cuStreamWriteValue32) of the driver, ``_v2`` where it exists."""
    lib = buffers.libcuda()
    fns = []
    for name in ("cuStreamWaitValue32", "cuStreamWriteValue32"):
        fn = getattr(lib, f"{name}_v2", None) or getattr(lib, name)
        fn.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint32, ctypes.c_uint]
        fn.restype = ctypes.c_int
        fns.append(fn)
    return fns[0], fns[1]


def _ok(result: int, what: str) -> None:
    if result != 0:
        raise buffers.CudaError(f"{what} failed with CUresult {result}", result)


class RunnerGate:
    """The runner's side: its stream waits for ``go`` and writes ``done``."""

    def __init__(self, desc: dict[str, Any], workdir: Path) -> None:
        flags, _ = buffers.open_descriptor(desc, workdir)
        self.flags = flags  # keeps the mapping alive
        self.go = flags.data_ptr() + GO * 4
        self.done = flags.data_ptr() + DONE * 4
        self._wait, self._write = _memops()

    def wait_go(self, stream: Any, generation: int) -> None:
        _ok(self._wait(stream.cuda_stream, self.go, generation, CU_STREAM_WAIT_VALUE_GEQ), "wait")

    def write_done(self, stream: Any, generation: int) -> None:
        _ok(
            self._write(stream.cuda_stream, self.done, generation, CU_STREAM_WRITE_VALUE_DEFAULT),
            "write",
        )


class RefereeGate:
    """The referee's side: one per referee process, shared by every grading (``shared()``)."""

    _shared: RefereeGate | None = None

    @classmethod
    def shared(cls) -> RefereeGate:
        if cls._shared is None:
            cls._shared = cls()
        return cls._shared

    def __init__(self) -> None:
        import torch

        self.torch = torch
        self.buf = buffers.create((2 * DONE,), "int32", "cuda", Path("."), "gate")
        self.buf.tensor.zero_()
        torch.cuda.synchronize()
        self.go = self.buf.tensor.data_ptr() + GO * 4
        self.done = self.buf.tensor.data_ptr() + DONE * 4
        self.stream = torch.cuda.Stream()  # non-blocking: device-wide syncs do not wait on it
        self.spare = torch.cuda.Stream()  # writes ``done`` when the runner did not
        self._wait, self._write = _memops()
        self.generation = 0
        self.start: Any = None
        self.end: Any = None
        self.open = False

    def descriptor(self) -> dict[str, Any]:
        return self.buf.descriptor()

    def next_call(self) -> int:
        """The generation of the next call, sent to the runner with it."""
        self.finish(0.0)
        self.generation += 1
        return self.generation

    def launched(self, probe: Callable[[], object] | None = None) -> None:
        """The runner's side of the call is queued: queue ours, then ``probe`` (reads of the
        outputs, on this stream right after the end event)."""
        torch = self.torch
        s = self.stream
        s.wait_stream(torch.cuda.current_stream())  # what the referee queued for this call
        self.start = torch.cuda.Event(enable_timing=True)
        self.end = torch.cuda.Event(enable_timing=True)
        self.start.record(s)
        g = self.generation
        _ok(self._write(s.cuda_stream, self.go, g, CU_STREAM_WRITE_VALUE_DEFAULT), "write go")
        _ok(self._wait(s.cuda_stream, self.done, g, CU_STREAM_WAIT_VALUE_GEQ), "wait done")
        self.end.record(s)
        if probe is not None:
            with torch.cuda.stream(s):
                probe()
        self.open = True

    def finish(self, timeout_s: float) -> float | None:
        """The bracket of the current call in ms, once its end event fired (waiting up to
        ``timeout_s``); None if it did not (then ``done`` is written here, so that the stream
        is never left blocked)."""
        if not self.open:
            return None
        deadline = time.monotonic() + timeout_s
        while not self.end.query():
            if time.monotonic() >= deadline:
                spare = self.spare.cuda_stream
                _ok(self._write(spare, self.done, self.generation, 0), "write done")
                self.stream.synchronize()
                self.open = False
                return None
            time.sleep(0)
        self.stream.synchronize()  # the probe behind the end event
        self.open = False
        return float(self.start.elapsed_time(self.end))
