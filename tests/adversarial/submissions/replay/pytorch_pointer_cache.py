# Threat class 1 (replay), PyTorch: cache c keyed on the three buffers' addresses and, when a
# later call passes the same buffers, copy the cached result into c instead of adding. The
# benchmark reuses its buffers from one timed run to the next, with fresh inputs in them, and
# the judge checks every output: a replayed c is wrong for the new a and b.
# expect: wrong_answer
import torch

_cache = {}


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, n: int):
    key = (a.data_ptr(), b.data_ptr(), c.data_ptr(), n)
    if key in _cache:
        c.copy_(_cache[key])  # replay: no addition at all
        return
    torch.add(a, b, out=c)
    _cache[key] = c.clone()
