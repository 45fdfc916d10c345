# Every rank sums every rank's x itself, after the barrier that makes the peers' x valid: the
# simplest correct all-reduce (each rank reads all of every x: (W - 1) buffers cross the links
# into each rank, against 2 (W - 1) / W for a reduce-scatter and an all-gather).
import torch


def solve(x, y, n, comm):
    comm.barrier()
    torch.sum(torch.stack([comm.peer(k, "x") for k in range(comm.world)]), dim=0, out=y)
