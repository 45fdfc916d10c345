source .whl/s/setup.sh
t0=$(date +%s); el(){ echo "[$(( $(date +%s)-t0 ))s] $*" >> $R/steps.log; }
el start
G="python3 scripts/gpu_check.py"
timeout 150 $G --phase samples --language triton --problem top-k --sample triton_fast --out $R/s-topk > $R/s-topk.log 2>&1
el topksamples
timeout 220 python3 benchmarks/latency.py --suite --all --only top-k --only vector-add --count 3 --resubmit 1 --gap 1.5 --json $R/latency.json --referee-profile $R/latency.prof > $R/latency.log 2>&1
el latency
timeout 120 $G --phase bench --repeat 1 --language triton --problem top-k --sample triton_fast --out $R/b-topk > $R/b-topk.log 2>&1
el bench
tar czf $OUT/rB.tgz -C $OUT r; el done
