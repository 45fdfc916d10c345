# Threat class 9 (resource attacks): allocate 400 GiB of scratch memory with torch.empty
# (allowed inside solve) on the device (on the CPU: host memory, under the address-space
# limit). The allocation fails; torch's OutOfMemoryError maps to memory_limit_exceeded.
# expect: memory_limit_exceeded (CPU: memory_limit_exceeded or runtime_error)
import torch


def solve(a, b, c, n):
    hog = torch.empty(100 << 30, dtype=torch.float32, device=a.device)
    del hog
