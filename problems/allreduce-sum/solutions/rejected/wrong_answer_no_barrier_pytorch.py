# expect: wrong_answer
# expect-message: NaN
# Bug: the peers' x read before any barrier; the rank that runs first reads them unwritten.
import torch


def solve(x, y, n, comm):
    torch.sum(torch.stack([comm.peer(k, "x") for k in range(comm.world)]), dim=0, out=y)
    comm.barrier()
