# Threat class 8 (shortcuts): a file read through torch.from_file (issue #36), refused by the
# static policy's paths (judge/languages/policy.py) as every other file reader is.
# expect: rejected
import torch


def solve(a, b, c, n):
    secret = torch.from_file("/etc/hostname", size=4, dtype=torch.uint8)
    torch.add(a, b, out=c)
    c[0] += secret[0]
