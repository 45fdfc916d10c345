source .whl/s/setup.sh
t0=$(date +%s); el(){ echo "[$(( $(date +%s)-t0 ))s] $*" >> $R/steps.log; }
el start
timeout 200 python3 .whl/s/one.py top-k rejected/wrong_answer_tail.py triton run > $R/topk-tail.log 2>&1 &
timeout 200 python3 .whl/s/one.py top-k rejected/wrong_answer_no_mask.py triton run > $R/topk-nomask.log 2>&1 &
wait; el topk
timeout 360 python3 benchmarks/profile_latency.py --repeat 3 --json $R/profile-latency.json > $R/profile-latency.log 2>&1
el profile
tar czf $OUT/r4.tgz -C $OUT r; el done
