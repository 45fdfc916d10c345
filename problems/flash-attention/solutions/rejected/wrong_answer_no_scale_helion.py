# expect: wrong_answer
# Bug: the scores are never scaled by 1/sqrt(d): the softmax comes out far too peaked.
import helion
import helion.language as hl
import torch


@helion.kernel(config=helion.Config(block_sizes=[64, 64]), static_shapes=False)
def attention_kernel(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, o: torch.Tensor) -> None:
    b, h, s, d = q.size()
    d = hl.specialize(d)
    qs = q.reshape(b * h, s, d)
    ks = k.reshape(b * h, s, d)
    vs = v.reshape(b * h, s, d)
    out = o.reshape(b * h, s, d)
    for tile_bh, tile_m in hl.tile([b * h, s], block_size=[1, None]):
        top = hl.full([tile_bh, tile_m], float("-inf"), dtype=torch.float32)
        total = hl.zeros([tile_bh, tile_m], dtype=torch.float32)
        acc = hl.zeros([tile_bh, tile_m, d], dtype=torch.float32)
        qb = qs[tile_bh, tile_m, :]
        for tile_n in hl.tile(s):
            scores = hl.dot(qb, ks[tile_bh, tile_n, :].transpose(1, 2), out_dtype=torch.float32)
            new_top = torch.maximum(top, torch.amax(scores, dim=2))
            p = torch.exp(scores - new_top[:, :, None])
            rescale = torch.exp(top - new_top)
            total = total * rescale + torch.sum(p, dim=2)
            acc = acc * rescale[:, :, None]
            acc = hl.dot(p.to(torch.float16), vs[tile_bh, tile_n, :], acc=acc)
            top = new_top
        out[tile_bh, tile_m, :] = (acc / total[:, :, None]).to(torch.float16)


def solve(q, k, v, o, b: int, h: int, s: int, d: int):
    attention_kernel(q, k, v, o)
