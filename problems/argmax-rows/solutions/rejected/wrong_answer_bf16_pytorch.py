# expect: wrong_answer
# Bug: takes the argmax of a bfloat16 copy of x "to halve the bytes read". bfloat16 keeps 8
# bits of mantissa: values that differ past the 8th bit round to the same number, the row's
# true maximum ties with an earlier column, and argmax returns that column.
import torch


def solve(x: torch.Tensor, idx: torch.Tensor, m: int, n: int):
    idx.copy_(torch.argmax(x.bfloat16(), dim=1))
