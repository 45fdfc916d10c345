source .whl/s/setup.sh
t0=$(date +%s); el(){ echo "[$(( $(date +%s)-t0 ))s] $*" >> $R/steps.log; }
el start; uptime >> $R/steps.log
SPT=$(python3 -c 'import sysconfig;print(sysconfig.get_paths()["purelib"])')
echo "site $SPT PYTHONDONTWRITEBYTECODE=${PYTHONDONTWRITEBYTECODE:-unset}" >> $R/steps.log
timeout 150 python3 -m compileall -q -j 16 $SPT > $R/compileall.log 2>&1; echo "compileall rc=$?" >> $R/steps.log
ls -d $SPT/torch/__pycache__ >> $R/steps.log 2>&1
el compileall
IMP_N=2 IMP_TOP=0 timeout 60 python3 .whl/s/imp.py > $R/imp.log 2>&1
el imp
timeout 200 python3 .whl/s/va.py --suite --all --only vector-add --only top-k --count 10 --resubmit 2 --gap 1.5 --json $R/latency.json > $R/latency.log 2>&1
el latency
timeout 170 python3 .whl/s/pl.py $R/profile-latency.json > $R/profile-latency.log 2>&1
el profile
tar czf $OUT/rG.tgz -C $OUT r; el done
