# Threat class 8 (shortcuts) through a code string (issue #36): code string run by timeit.Timer.
# The string switches the kernel-track library rule off from inside the process, then torch.add
# computes c with no kernel at all. The standard library is an allow-list (judge/languages/
# imports.py): the import is refused before anything runs.
# expect: rejected
import timeit

import torch


def solve(a, b, c, n):
    timeit.Timer("import judge.sandbox.rules as r; r._TRITON_DIR = ''").timeit(1)
    torch.add(a, b, out=c)
