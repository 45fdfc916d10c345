source .whl/s/setup.sh
timeout 130 python3 .whl/s/settle.py > $R/settle.log 2>&1
tar czf $OUT/r7.tgz -C $OUT r
