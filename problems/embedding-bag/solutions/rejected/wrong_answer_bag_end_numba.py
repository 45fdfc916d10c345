# expect: wrong_answer
# Bug: the bag's last index left out (range(start, end - 1)), while still dividing by the full
# length: every bag of two or more rows loses one, and a one-row bag gives 0.
from numba import cuda, float32

THREADS = 128


@cuda.jit
def bag_mean(weight, indices, offsets, out, dim, bags):
    i = cuda.grid(1)
    if i < bags * dim:
        bag = i // dim
        d = i % dim
        start = offsets[bag]
        end = offsets[bag + 1]
        acc = float32(0.0)
        for k in range(start, end - 1):
            acc += weight[indices[k], d]
        out[bag, d] = acc / float32(max(end - start, 1))


def solve(weight, indices, offsets, out, num_embeddings, dim, bags, nnz):
    blocks = (bags * dim + THREADS - 1) // THREADS
    bag_mean[blocks, THREADS](weight, indices, offsets, out, dim, bags)
