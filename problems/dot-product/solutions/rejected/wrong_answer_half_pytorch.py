# expect: wrong_answer
# Bug: takes the dot product of float16 copies of a and b "to halve the bytes read". float16
# keeps 11 bits of mantissa, so each product is off by up to 5e-4 relative and the result
# comes back in float16 too: far beyond the tolerance (1e-4 of the sum of |a_i b_i|).
import torch


def solve(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor, n: int):
    out.copy_(torch.dot(a.half(), b.half()))
