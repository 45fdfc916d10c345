# expect: wrong_answer
# expect-message: ties
# Bug: the wrong tie rule. The row is sorted ascending (stable) and the order flipped to get
# the largest first. The stable sort keeps equal values in column order, and the flip reverses
# that too: among equal values the higher column comes first, where the rule asks for the
# lower. Rows of distinct values pass; the "ties" rows (integers 0 ... 7) do not. The fix: a
# stable sort with descending=True, which keeps equal values in column order.
import torch


def solve(x: torch.Tensor, vals: torch.Tensor, idx: torch.Tensor, b: int, v: int, k: int):
    order = torch.sort(x, dim=1, stable=True).indices.flip(1)[:, :k]
    vals.copy_(x.gather(1, order))
    idx.copy_(order)
