# expect: wrong_answer
# Bug: the mean as the bag's sum divided by its length, with no case for an empty bag: 0 / 0 is
# NaN, where the problem (as torch's embedding_bag in mean mode) wants a row of zeros.
import torch


def solve(weight, indices, offsets, out, num_embeddings: int, dim: int, bags: int, nnz: int):
    sums = torch.nn.functional.embedding_bag(
        indices, weight, offsets, mode="sum", include_last_offset=True
    )
    counts = (offsets[1:] - offsets[:-1]).to(weight.dtype).unsqueeze(1)
    out.copy_(sums / counts)
