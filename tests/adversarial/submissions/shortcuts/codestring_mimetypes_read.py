# Threat class 8 (shortcuts) through a code string (issue #36): a file read through mimetypes.read_mime_types.
# The string switches the kernel-track library rule off from inside the process, then torch.add
# computes c with no kernel at all. The standard library is an allow-list (judge/languages/
# imports.py): the import is refused before anything runs.
# expect: rejected
import mimetypes

import torch


def solve(a, b, c, n):
    mimetypes.read_mime_types("/etc/hostname")
    torch.add(a, b, out=c)
