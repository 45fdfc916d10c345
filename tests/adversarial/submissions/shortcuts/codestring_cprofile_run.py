# Threat class 8 (shortcuts) through a code string (issue #36): code string run by cProfile.run.
# The string switches the kernel-track library rule off from inside the process, then torch.add
# computes c with no kernel at all. The standard library is an allow-list (judge/languages/
# imports.py): the import is refused before anything runs.
# expect: rejected
import cProfile

import torch


def solve(a, b, c, n):
    cProfile.run("import judge.sandbox.rules as r; r._TRITON_DIR = ''")
    torch.add(a, b, out=c)
