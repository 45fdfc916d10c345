# Threat class 2 (deferred work), aimed at the gap between the referee thawing the runner and
# the runner recording its start event: a background thread polls the clock; a long gap means
# the process was just thawed (SIGCONT) for a timed call, whose fresh inputs are already in
# place. It launches the kernel at once, before the main thread has even read the "call"
# message, so the runner's start event is queued after the work. solve then sees the work is
# done and returns. Caught by the referee's wall-clock cross-check when the work is large
# against the cross-check's slack (0.8 x wall - 0.05 ms); see SECURITY.md for the residue.
# On the CPU the runner is never frozen, so it computes honestly.
# expect: GPU not accepted when the watcher fires on timed calls (a wrong answer when it fires
# on a test call, the speed-of-light bound when on most timed calls), else accepted with an
# honest time; CPU accepted
import threading
import time

import triton
import triton.language as tl

_state = {"args": None, "prelaunched": False}


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def _launch(a, b, c, n):
    block = 1024 if a.is_cuda else 1 << 16
    add_kernel[(triton.cdiv(n, block),)](a, b, c, n, BLOCK=block)


def _watch():
    last = time.monotonic()
    while True:
        time.sleep(0.0002)
        now = time.monotonic()
        if now - last > 0.004 and _state["args"] is not None:  # we were frozen: a timed call is next
            _launch(*_state["args"])
            _state["prelaunched"] = True
        last = now


def solve(a, b, c, n):
    if _state["args"] is None and a.is_cuda:
        threading.Thread(target=_watch, daemon=True).start()
    same = _state["args"] is not None and _state["args"][2].data_ptr() == c.data_ptr()
    if same and _state["prelaunched"]:
        _state["prelaunched"] = False
        return
    _state["args"] = (a, b, c, n)
    _state["prelaunched"] = False
    _launch(a, b, c, n)
