"""Segmented sum on the framework track: torch.segment_reduce over the offsets (empty segments
give 0, the initial value of a sum), copied into out."""

import torch


def solve(x, offsets, out, n: int, segments: int):
    out.copy_(torch.segment_reduce(x, "sum", offsets=offsets, axis=0))
