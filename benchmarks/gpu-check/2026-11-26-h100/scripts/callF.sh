source .whl/s/setup.sh
t0=$(date +%s); el(){ echo "[$(( $(date +%s)-t0 ))s] $*" >> $R/steps.log; }
el start; uptime >> $R/steps.log
/usr/local/cuda-13.0/bin/compute-sanitizer --help 2>&1 | grep -A4 "launch-timeout" > $R/cs-help.txt
timeout 120 python3 .whl/s/imp.py > $R/imp.log 2>&1
el imp
timeout 100 python3 .whl/s/settle2.py cur1 cur2 > $R/settle.log 2>&1
el settle
python3 -m pip install -q --no-deps --target /tmp/web .whl/web/*.whl > $R/web-pip.log 2>&1
PYTHONPATH=/tmp/site:/tmp/web:$PWD timeout 280 python3 scripts/gpu_check.py --phase class --out $R/class > $R/class.log 2>&1
el class
tar czf $OUT/rF.tgz -C $OUT r; el done
