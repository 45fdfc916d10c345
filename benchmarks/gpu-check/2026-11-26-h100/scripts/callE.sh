source .whl/s/setup.sh
t0=$(date +%s); el(){ echo "[$(( $(date +%s)-t0 ))s] $*" >> $R/steps.log; }
el start; uptime >> $R/steps.log
timeout 100 python3 .whl/s/settle2.py cur1 cur2 cur3 > $R/settle.log 2>&1
el settle
timeout 200 python3 .whl/s/va.py --suite --all --only vector-add --only top-k --count 12 --resubmit 2 --gap 1.5 --json $R/latency.json > $R/latency.log 2>&1
el latency
timeout 250 python3 .whl/s/pl.py $R/profile-latency.json > $R/profile-latency.log 2>&1
el profile
tar czf $OUT/rE.tgz -C $OUT r; el done
