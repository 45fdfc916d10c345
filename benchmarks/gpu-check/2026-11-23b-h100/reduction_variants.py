import statistics, sys, importlib.util
sys.path.insert(0, '.')
import torch, triton, triton.language as tl
from worker.grading import timing, bandwidth
from worker.grading.hold import Hold

@triton.jit
def part_static(x_ptr, part_ptr, n, BLOCK: tl.constexpr, ITERS: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * (BLOCK * ITERS)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in tl.static_range(ITERS):
        offs = base + i * BLOCK + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(part_ptr + tl.program_id(0), tl.sum(acc, axis=0))

@triton.jit
def final_sum(part_ptr, out_ptr, p, BLOCK_P: tl.constexpr):
    acc = tl.zeros([BLOCK_P], dtype=tl.float32)
    for s in range(0, p, BLOCK_P):
        offs = s + tl.arange(0, BLOCK_P)
        acc += tl.load(part_ptr + offs, mask=offs < p, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0))

@triton.jit
def part_persist(x_ptr, part_ptr, n, BLOCK: tl.constexpr, UNROLL: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    step = nprog * BLOCK * UNROLL
    for start in range(pid * BLOCK * UNROLL, n, step):
        for u in tl.static_range(UNROLL):
            offs = start + u * BLOCK + tl.arange(0, BLOCK)
            acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(part_ptr + pid, tl.sum(acc, axis=0))

def mk_static(BLOCK, ITERS, warps):
    def solve(x, out, n):
        p = triton.cdiv(n, BLOCK * ITERS)
        part = torch.empty(p, dtype=torch.float32, device=x.device)
        part_static[(p,)](x, part, n, BLOCK=BLOCK, ITERS=ITERS, num_warps=warps)
        final_sum[(1,)](part, out, p, BLOCK_P=1024, num_warps=4)
    return solve

def mk_persist(BLOCK, UNROLL, per_sm, warps):
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    def solve(x, out, n):
        p = min(triton.cdiv(n, BLOCK * UNROLL), per_sm * sms)
        part = torch.empty(p, dtype=torch.float32, device=x.device)
        part_persist[(p,)](x, part, n, BLOCK=BLOCK, UNROLL=UNROLL, num_warps=warps)
        final_sum[(1,)](part, out, p, BLOCK_P=1024, num_warps=4)
    return solve

spec = importlib.util.spec_from_file_location('tf', 'problems/reduction/solutions/accepted/triton_fast.py')
tf = importlib.util.module_from_spec(spec); spec.loader.exec_module(tf)
n = 1 << 25
x = torch.rand(n, device='cuda')
out = torch.empty(1, device='cuda')
hold = Hold(torch)
fl = timing.L2Flusher.shared()
ref = x.double().sum().item()
def bench(fn, calls=100):
    for _ in range(3): fn(x, out, n)
    torch.cuda.synchronize()
    err = abs(out.item() - ref) / ref
    ts = []
    for _ in range(calls):
        fl.flush(); torch.cuda.synchronize()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        hold.hold(); s.record(); fn(x, out, n); e.record(); hold.release(); e.synchronize()
        ts.append(s.elapsed_time(e))
    return statistics.median(ts), err
bw = {k: nb / (timing._time_cuda(f) / 1e3) for k, (f, nb) in bandwidth.patterns(1 << 28).items()}
y = torch.empty(1 << 28, device='cuda')
bw['torch sum 1GiB (read only)'] = (1 << 28) * 4 / (timing._time_cuda(lambda: y.sum()) / 1e3)
del y
for k, v in bw.items(): print(f'{k:30} {v/1e9:8.1f} GB/s')
ceil = max(v for k, v in bw.items() if 'read only' not in k)
floor_us = n * 4 / ceil * 1e6
print(f'floor {floor_us:.1f} us')
cands = {'editorial triton_fast': tf.solve, 'torch.sum': lambda x, o, n: torch.sum(x, dim=0, out=o.view(()))}
for B, I, w in [(4096, 4, 8), (4096, 8, 8), (2048, 8, 4), (8192, 2, 8), (4096, 2, 8), (1024, 16, 4)]:
    cands[f'static B{B} I{I} w{w}'] = mk_static(B, I, w)
for B, U, ps, w in [(4096, 2, 4, 8), (4096, 4, 4, 8), (2048, 4, 8, 4), (4096, 1, 8, 8), (1024, 4, 16, 4)]:
    cands[f'persist B{B} U{U} {ps}/SM w{w}'] = mk_persist(B, U, ps, w)
for name, fn in cands.items():
    try:
        ms, err = bench(fn)
        print(f'{name:32} {ms*1e3:7.1f} us  {floor_us/(ms*1e3)*100:5.1f}%  relerr {err:.1e}', flush=True)
    except Exception as ex:
        print(name, 'failed', type(ex).__name__, str(ex)[:200], flush=True)
import ctypes, glob
for so in sorted(glob.glob('.probe/red_*.so')):
    lib = ctypes.CDLL(so)
    lib.solve.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
    f = (lambda lib: lambda x, o, n: lib.solve(x.data_ptr(), o.data_ptr(), n))(lib)
    ms, err = bench(f)
    print(f'cuda {so:28} {ms*1e3:7.1f} us  {floor_us/(ms*1e3)*100:5.1f}%  relerr {err:.1e}', flush=True)
