source .whl/s/setup.sh
t0=$(date +%s); el(){ echo "[$(( $(date +%s)-t0 ))s] $*" >> $R/steps.log; }
el start
timeout 270 python3 .whl/s/pl.py $R/profile-latency.json > $R/profile-latency.log 2>&1
el profile
tar czf $OUT/r6.tgz -C $OUT r; el done
