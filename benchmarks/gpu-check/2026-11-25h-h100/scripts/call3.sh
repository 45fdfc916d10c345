source .whl/s/setup.sh
t0=$(date +%s); el(){ echo "[$(( $(date +%s)-t0 ))s] $*" >> $R/steps.log; }
el start
G="python3 scripts/gpu_check.py --phase bench --repeat 1"
timeout 200 $G --language pytorch --sample pytorch_simple --problem causal-gqa-attention --problem causal-softmax --problem cross-entropy --problem decode-attention --problem gemm-bf16 --problem gemm-fp8-blockscaled --problem gemm-int8 --problem layernorm --problem rmsnorm-residual --problem rope --problem swiglu --problem top-k --out $R/b-pt > $R/b-pt.log 2>&1
el benchpt
timeout 330 $G --language pallas --sample pallas_simple --problem causal-gqa-attention --problem causal-softmax --problem cross-entropy --problem decode-attention --problem gemm-bf16 --problem gemm-int8 --problem histogram --problem layernorm --problem prefix-sum --problem rmsnorm-residual --problem rope --problem spmv-csr --problem stream-compaction --problem swiglu --problem top-k --out $R/b-pl > $R/b-pl.log 2>&1
el benchpl
tar czf $OUT/r3.tgz -C $OUT r; el done
