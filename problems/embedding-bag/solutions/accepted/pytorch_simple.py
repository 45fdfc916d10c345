"""Embedding bag on the framework track: torch's embedding_bag in mean mode, given the
offsets with the last one included (so that bag b ends at offsets[b + 1] and an empty bag
gives 0), copied into out."""

import torch


def solve(weight, indices, offsets, out, num_embeddings: int, dim: int, bags: int, nnz: int):
    pooled = torch.nn.functional.embedding_bag(
        indices, weight, offsets, mode="mean", include_last_offset=True
    )
    out.copy_(pooled)
