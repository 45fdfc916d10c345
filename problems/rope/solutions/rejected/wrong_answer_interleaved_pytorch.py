# expect: wrong_answer
# expect-message: values out of tolerance
# Bug: the GPT-J layout on the framework track. torch.view_as_complex pairs neighbouring
# elements (2i, 2i+1) and multiplies by e^(i·angle): the textbook RoPE, and the wrong
# pairing for this problem, whose pairs are the halves (i, i + d/2) of each head.
import torch


def solve(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, b: int, s: int, h: int, d: int):
    rot = torch.complex(cos, sin)[None, :, None, :]
    for x in (q, k):
        z = torch.view_as_complex(x.float().reshape(b, s, h, d // 2, 2).contiguous())
        x.copy_(torch.view_as_real(z * rot).reshape(b, s, h, d))
