source .whl/s/setup.sh
t0=$(date +%s); el(){ echo "[$(( $(date +%s)-t0 ))s] $*" >> $R/steps.log; }
el start
timeout 150 python3 .whl/s/one.py top-k rejected/wrong_answer_no_mask.py triton run > $R/topk-nomask.log 2>&1 &
timeout 100 python3 .whl/s/spares.py memcheck > $R/sp-memcheck.log 2>&1
el memcheck
timeout 100 python3 .whl/s/spares.py both > $R/sp-both.log 2>&1
el both
wait; el topk
tar czf $OUT/r5.tgz -C $OUT r; el done
