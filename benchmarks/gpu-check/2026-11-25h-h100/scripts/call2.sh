source .whl/s/setup.sh
export PATH=/opt/kd-nvcc/nvidia/cu13/bin:$PATH
t0=$(date +%s); el(){ echo "[$(( $(date +%s)-t0 ))s] $*" >> $R/steps.log; }
el start; which nvcc >> $R/env.txt
timeout 170 python3 benchmarks/latency.py --suite --all --only top-k --only decode-attention --only gemm-int8 --only vector-add --count 3 --resubmit 1 --gap 1.5 --json $R/latency.json --referee-profile $R/latency.prof > $R/latency.log 2>&1
el latency
G="python3 scripts/gpu_check.py"
timeout 150 $G --phase samples --language cuda --problem causal-gqa-attention --problem gemm-fp8-blockscaled --out $R/s-cuda1 > $R/s-cuda1.log 2>&1 &
timeout 150 $G --phase samples --language cuda --problem gemm-int8 --sample cuda_simple --sample no_bounds --out $R/s-cuda2 > $R/s-cuda2.log 2>&1 &
wait; el cudasamples
timeout 200 $G --phase bench --repeat 1 --language triton --language numba --problem gemm-int8 --problem top-k --problem prefix-sum --problem radix-sort --problem causal-softmax --sample triton_simple --sample triton_fast --sample triton_packed --sample numba_simple --out $R/b-tri > $R/b-tri.log 2>&1
el benchtri
tar czf $OUT/r2.tgz -C $OUT r; el done
