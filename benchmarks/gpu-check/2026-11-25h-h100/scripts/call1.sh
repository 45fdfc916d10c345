source .whl/s/setup.sh
G="python3 scripts/gpu_check.py --phase samples"
t0=$(date +%s); el(){ echo "[$(( $(date +%s)-t0 ))s] $*" >> $R/steps.log; }
el start
timeout 120 python3 -c "from worker.grading import timing
for u in ('copy','fp32','tf32','fp16','bf16','int8','fp8'): print(u, timing.ceiling(u))" > $R/ceilings.log 2>&1
el ceilings
timeout 230 $G --language pallas --problem histogram --problem prefix-sum --problem top-k --problem radix-sort --problem conv2d --problem grayscale --out $R/s-pallas > $R/s-pallas.log 2>&1 &
( timeout 230 $G --language pytorch --problem radix-sort --out $R/s-radixpt > $R/s-radixpt.log 2>&1
  timeout 100 $G --language cuda --problem layernorm --sample no_bounds --out $R/s-ln > $R/s-ln.log 2>&1 ) &
( timeout 120 $G --language triton --problem top-k --sample no_mask --sample tail --out $R/s-topk > $R/s-topk.log 2>&1
  timeout 150 $G --language triton --problem prefix-sum --problem radix-sort --sample triton_fast --sample triton_packed --out $R/s-tri > $R/s-tri.log 2>&1 ) &
wait; el samples
timeout 230 python3 benchmarks/profile_latency.py --repeat 3 --json $R/profile-latency.json > $R/profile-latency.log 2>&1
el profile
tar czf $OUT/r1.tgz -C $OUT r; el done
