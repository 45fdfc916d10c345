# Threat class 8 (shortcuts), Numba: no kernel at all; wrap the judge's arrays as torch tensors
# (zero-copy through the array interface) and let torch add them. Numba is on the kernel
# track: where a problem forbids library compute, the library rule refuses torch's operators
# inside solve, whatever the arrays came wrapped as.
# expect: rejected
import torch


def solve(a, b, c, n):
    torch.add(torch.as_tensor(a), torch.as_tensor(b), out=torch.as_tensor(c))
