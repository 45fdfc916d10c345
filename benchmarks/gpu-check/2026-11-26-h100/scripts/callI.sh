source .whl/s/setup.sh
t0=$(date +%s); el(){ echo "[$(( $(date +%s)-t0 ))s] $*" >> $R/steps.log; }
el start
timeout 150 python3 scripts/gpu_check.py --phase samples --problem matmul --problem flash-attention --problem vector-add --sample triton_autotuned --sample triton_descriptor --sample no_mask --out $R/s > $R/s.log 2>&1
el samples
tar czf $OUT/rI.tgz -C $OUT r; el done
