source .whl/s/setup.sh
t0=$(date +%s); el(){ echo "[$(( $(date +%s)-t0 ))s] $*" >> $R/steps.log; }
el start; uptime >> $R/steps.log
IMP_N=2 IMP_TOP=9 timeout 60 python3 .whl/s/imp.py > $R/imp.log 2>&1
el imp
timeout 200 python3 .whl/s/va.py --suite --all --only vector-add --only top-k --count 10 --resubmit 2 --gap 1.5 --json $R/latency.json > $R/latency.log 2>&1
el latency
tar czf $OUT/rH.tgz -C $OUT r; el done
