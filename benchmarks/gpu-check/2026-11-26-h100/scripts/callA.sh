source .whl/s/setup.sh
t0=$(date +%s); el(){ echo "[$(( $(date +%s)-t0 ))s] $*" >> $R/steps.log; }
el start
G="python3 scripts/gpu_check.py"
timeout 110 $G --phase samples --language pytorch --problem cross-entropy --out $R/s-ce > $R/s-ce.log 2>&1
el cesamples
timeout 90 $G --phase bench --repeat 1 --language pytorch --problem cross-entropy --sample pytorch_simple --out $R/b-ce > $R/b-ce.log 2>&1
el cebench
timeout 120 python3 .whl/s/settle.py > $R/settle.log 2>&1
el settle
timeout 240 python3 .whl/s/pl.py $R/profile-latency.json > $R/profile-latency.log 2>&1
el profile
tar czf $OUT/rA.tgz -C $OUT r; el done
