# Threat class 2 (deferred work), PyTorch: run the addition on a side CUDA stream and return
# without joining it, so a timer that only waits for solve's stream misses the work. Solve's
# stream waits at the referee's gate (gate.py) while the side stream does not: the work runs
# before the gate opens, both clocks see almost nothing, and the speed-of-light bound rejects
# the time. On the CPU (no streams) it simply computes.
# expect: GPU rejected (faster than the speed of light); CPU accepted
import torch

_stream = None


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, n: int):
    global _stream
    if not a.is_cuda:
        torch.add(a, b, out=c)
        return
    if _stream is None:
        _stream = torch.cuda.Stream()
    with torch.cuda.stream(_stream):
        torch.add(a, b, out=c)
