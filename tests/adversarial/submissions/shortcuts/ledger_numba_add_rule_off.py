# Threat class 8 (shortcuts), Numba with the in-process rule stepped out of: torch.add on views of
# the Numba arrays. Numba's own kernels are named under "cudapy"; torch's add kernel is not, and
# the referee's kernel ledger sees it launched.
# expect: rejected
import torch
from torch.utils._python_dispatch import _disable_current_modes


def solve(a, b, c, n):
    with _disable_current_modes():
        torch.add(torch.as_tensor(a), torch.as_tensor(b), out=torch.as_tensor(c))
