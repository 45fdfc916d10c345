# expect: wrong_answer
# Bug: each segment's sum as a difference of inclusive prefix sums, c[end - 1] - c[start - 1],
# without a leading zero: for a segment starting at 0, c[-1] is Python's last element, the
# total, not 0, so the first segment (and any empty ones at the start) come out wrong.
import torch


def solve(x, offsets, out, n: int, segments: int):
    c = torch.cumsum(x, dim=0)
    starts = offsets[:-1].long()
    ends = offsets[1:].long()
    out.copy_(c[ends - 1] - c[starts - 1])
