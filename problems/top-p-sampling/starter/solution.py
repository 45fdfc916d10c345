import torch
import triton
import triton.language as tl


@triton.jit
def solve_kernel(probs_ptr, top_p_ptr, u_ptr, token_ptr, batch, vocab, BLOCK: tl.constexpr):
    # TODO: program i handles elements i * BLOCK ... of token (mask out those past its end):
    # load the inputs at those offsets, compute, and store the result into token_ptr.
    pass


# inputs probs [batch, vocab] float32, top_p [batch] float32, u [batch] float32; output token [batch] int32.
# Contiguous tensors on the GPU; write the result into the output and return nothing.
def solve(probs: torch.Tensor, top_p: torch.Tensor, u: torch.Tensor, token: torch.Tensor, batch: int, vocab: int):
    BLOCK = 1024
    grid = (triton.cdiv(token.numel(), BLOCK),)
    solve_kernel[grid](probs, top_p, u, token, batch, vocab, BLOCK=BLOCK)
