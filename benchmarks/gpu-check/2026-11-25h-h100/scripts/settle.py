import sys, time
sys.path.insert(0, ".")
from worker.grading.profile import spare
from worker.grading.runner_client import RunnerPool
for i in range(3):
    T = time.monotonic()
    pool = RunnerPool("cuda")
    for t in spare.replenish(pool, spare.kept_tools()): t.join()
    pool.warm(now=True)  # as tasks.py does at start
    t0 = time.monotonic(); pool.settle(300.0)
    print(f"pool {i}: settle {time.monotonic()-t0:.1f} s, kept ready: {[(k, c.ready, c.init_s) for k, c in pool._kept.items()]}", flush=True)
    pool.close()
