# Threat class 5 (input tampering), PyTorch: c = a with no addition, then b zeroed in place, so
# that a judge recomputing a + b from the buffers after the call would find c right. The judge
# computes the expected output from its own copy of the inputs, made before the call.
# expect: wrong_answer
import torch


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, n: int):
    c.copy_(a)
    b.zero_()
