import logging, sys, time, json
from pathlib import Path
sys.path.insert(0, ".")
logging.basicConfig(level=logging.INFO, format="%(relativeCreated)8.0f ms %(name)s %(levelname)s %(message)s")
from worker.grading import grader, problems
slug, rel, lang, mode = sys.argv[1:5]
p = problems.resolve(slug)
src = Path(f"problems/{slug}/solutions/{rel}").read_text()
t0 = time.monotonic()
def prog(ev): print(f"  [{time.monotonic()-t0:6.1f}] progress {ev}", flush=True)
res = grader.grade(p, src, lang, device="cuda", mode=mode, on_progress=prog)
print(f"[{time.monotonic()-t0:.1f}s] {slug}/{rel}: {res.verdict}: {res.message[:300]}")
print(json.dumps(res.phases, default=str))
if res.sanitizer: print(json.dumps(res.sanitizer.to_dict(), default=str)[:2000])
