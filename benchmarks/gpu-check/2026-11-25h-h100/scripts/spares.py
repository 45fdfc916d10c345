import logging, sys, time, subprocess
sys.path.insert(0, ".")
logging.basicConfig(level=logging.DEBUG, format="%(relativeCreated)8.0f ms %(name)s %(levelname)s %(message)s")
from worker.grading.profile import spare
from worker.grading.runner_client import RunnerPool
T = time.monotonic()
def say(*a): print(f"[{time.monotonic()-T:6.1f}]", *a, flush=True)
order = sys.argv[1] if len(sys.argv) > 1 else "both"
pool = RunnerPool("cuda")
say("pool made")
tools = spare.kept_tools()
if order == "memcheck": tools = [t for t in tools if t.key.startswith("memcheck")]
if order == "ncu": tools = [t for t in tools if t.key.startswith("ncu")]
for t in spare.replenish(pool, tools): t.join()
say("spares launched", list(pool._kept))
pool.settle(120, warm=False); say("plain settled")
for key, c in list(pool._kept.items()):
    t0 = time.monotonic()
    try:
        c.wait_ready(60); say(key, "READY in", round(time.monotonic()-t0, 1), "init_s", c.init_s)
    except Exception as e:
        say(key, "FAILED", type(e).__name__, e, "alive" if c.proc.popen.poll() is None else f"rc {c.proc.popen.poll()}")
        print(subprocess.run(["ps", "-ef", "--forest"], capture_output=True, text=True).stdout[-4000:])
    try: print("LOG", key, c.log_path.read_text()[-3000:])
    except Exception as e: print("no log", e)
pool.close(); say("closed")
