import torch


# x, y: float32 [n], this rank's own; comm: comm.rank, comm.world, comm.peer(k, "x"),
# comm.barrier(). Framework track: any torch operation is allowed. Write this rank's y in place
# and return nothing; read a peer's buffer only after a barrier it has passed.
def solve(x: torch.Tensor, y: torch.Tensor, n: int, comm):
    comm.barrier()  # every rank's x holds its data from here on
    pass  # TODO: y = the sum over k of comm.peer(k, "x")
