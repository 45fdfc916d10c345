# Threat class 8 (shortcuts) through a code string (issue #36): a file written through logging.basicConfig(filename=...).
# The string switches the kernel-track library rule off from inside the process, then torch.add
# computes c with no kernel at all. The standard library is an allow-list (judge/languages/
# imports.py): the import is refused before anything runs.
# expect: rejected
import logging

import torch


def solve(a, b, c, n):
    logging.basicConfig(filename="/tmp/kd-log.txt")
    torch.add(a, b, out=c)
