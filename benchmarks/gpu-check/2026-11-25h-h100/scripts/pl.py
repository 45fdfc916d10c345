import sys, time, subprocess, runpy
sys.path.insert(0, ".")
from worker.grading import runner_client as rc
orig = rc.RunnerClient.wait_ready
T = time.monotonic()
def wr(self, timeout_s):
    if self.ready: return orig(self, timeout_s)
    t0 = time.monotonic()
    try:
        return orig(self, min(timeout_s, 45.0))
    except Exception as e:
        print(f"[{time.monotonic()-T:6.1f}] WAIT_READY FAILED after {time.monotonic()-t0:.1f}s on {self.workdir}: {type(e).__name__} {e}; imported={self.imported} init_sent={self.init_sent} rc={self.proc.popen.poll()}", flush=True)
        print(subprocess.run(["ps", "-eo", "pid,ppid,etime,stat,args", "--forest"], capture_output=True, text=True).stdout[-5000:], flush=True)
        try: print("LOG:", self.log_path.read_text()[-3000:], flush=True)
        except Exception as x: print("nolog", x)
        raise
    finally:
        d = time.monotonic() - t0
        if d > 3: print(f"[{time.monotonic()-T:6.1f}] wait_ready {self.workdir.name} took {d:.1f}s", flush=True)
rc.RunnerClient.wait_ready = wr
sys.argv = ["profile_latency.py", "--repeat", "3", "--json", sys.argv[1]]
runpy.run_path("benchmarks/profile_latency.py", run_name="__main__")
