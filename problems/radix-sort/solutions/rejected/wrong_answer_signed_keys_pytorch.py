# expect: wrong_answer
# Bug: sorts the keys viewed as int32 (torch has no uint32 sort on a GPU) without flipping the
# top bit: keys of 2^31 and more read as negative numbers and are sorted before the small ones.
import torch


def solve(keys: torch.Tensor, vals: torch.Tensor, n: int):
    ordered, order = torch.sort(keys.view(torch.int32), stable=True)
    vals.copy_(vals[order])
    keys.view(torch.int32).copy_(ordered)
