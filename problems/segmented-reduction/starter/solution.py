import torch
import triton
import triton.language as tl


@triton.jit
def segment_sum_kernel(x_ptr, offsets_ptr, out_ptr, n, segments, BLOCK: tl.constexpr):
    # TODO: one program per segment (s = tl.program_id(0)): its elements are
    # x[offsets[s]] .. x[offsets[s + 1] - 1] (offsets[s + 1] is one past the end).
    #   1. add them up in chunks of BLOCK (mask the chunk at the segment's end, other=0.0)
    #   2. store the sum into out[s] (an empty segment's sum is 0: store it too)
    pass


# x: float32 (n); offsets: int32 (segments + 1); out: float32 (segments); on the GPU.
def solve(x: torch.Tensor, offsets: torch.Tensor, out: torch.Tensor, n: int, segments: int):
    BLOCK = 1024
    segment_sum_kernel[(segments,)](x, offsets, out, n, segments, BLOCK=BLOCK)
