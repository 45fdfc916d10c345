source .whl/s/setup.sh
t0=$(date +%s); el(){ echo "[$(( $(date +%s)-t0 ))s] $*" >> $R/steps.log; }
el start
timeout 330 python3 .whl/s/settle2.py cur1 cur2 cur3 cur4 serial1 serial2 serial3 serial4 > $R/settle2.log 2>&1
el settle2
timeout 150 python3 benchmarks/latency.py --suite --all --only vector-add --count 10 --resubmit 2 --gap 1.5 --json $R/latency-va.json > $R/latency-va.log 2>&1
el latency
tar czf $OUT/rC.tgz -C $OUT r; el done
