# expect: wrong_answer
# Bug: the block scales are spread over the elements with repeat instead of repeat_interleave.
# repeat tiles the whole scale matrix (columns 0, 1, 2, 0, 1, 2, ...) where each scale must
# cover its own 128 consecutive columns (0 x 128, 1 x 128, ...): element l gets block
# l % blocks's scale, not l // 128's. With one k block and one row block of b it is the same
# thing, so those cases pass; from two blocks on, most products get another block's scale.
import torch


def dequantise(q: torch.Tensor, scale: torch.Tensor, rows_per_block: int) -> torch.Tensor:
    r, k = q.shape
    s = scale.repeat(rows_per_block, 128)
    return q.float() * s[:r, :k]


def solve(a: torch.Tensor, b: torch.Tensor, sa: torch.Tensor, sb: torch.Tensor, c: torch.Tensor, m: int, n: int, k: int):
    c.copy_(dequantise(a, sa, 1) @ dequantise(b, sb, 128).T)
