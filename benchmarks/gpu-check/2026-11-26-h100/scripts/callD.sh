source .whl/s/setup.sh
t0=$(date +%s); el(){ echo "[$(( $(date +%s)-t0 ))s] $*" >> $R/steps.log; }
el start; uptime >> $R/steps.log
timeout 200 python3 .whl/s/settle2.py cur1 cur2 cur3 > $R/settle3.log 2>&1
el settle3
timeout 170 python3 .whl/s/va.py --suite --all --only vector-add --count 12 --resubmit 2 --gap 1.5 --json $R/latency-va.json > $R/latency-va.log 2>&1
el latency
tar czf $OUT/rD.tgz -C $OUT r; el done
