#!/usr/bin/env bash
# Full run: every benchmark and size, one fork each, 3 x 500 ms warm-up and 5 x 500 ms measurement iterations (the
# annotations' defaults), with -prof gc for B/op; then allocs/op under the allocation-counting agent; then the report,
# the target checks and the charts. About 20 minutes on 2 cores.
#   jmh/run-full.sh [output-dir] [extra JMH options...]      e.g. jmh/run-full.sh target/full 'OursDefaults'
# Compare two runs:
#   java -cp jmh/target/benchmarks.jar io.github.mongoredact.jmh.report.Report compare before/results.json \
#       after/results.json --old-allocs before/allocs.json --new-allocs after/allocs.json
set -euo pipefail
cd "$(dirname "$0")"
source ./jmh-lock.sh
OUT=${1:-target/full}
shift || true
mkdir -p "$OUT"

mvn -B -q package

run_jmh "$OUT/jmh.log" -foe true -prof gc -rf json -rff "$OUT/results.json" "$@" \
  || { tail -60 "$OUT/jmh.log" "$OUT/jmh.log.console"; echo "benchmarks FAILED (log: $OUT/jmh.log)"; exit 1; }

java -javaagent:target/allocation-instrumenter.jar -cp target/benchmarks.jar \
    io.github.mongoredact.jmh.alloc.AllocationCount "$OUT/results.json" "$OUT/allocs.json" > "$OUT/allocs.log" 2>&1 \
  || { tail -40 "$OUT/allocs.log"; echo "allocation count FAILED"; exit 1; }

java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Report report "$OUT/results.json" \
    --allocs "$OUT/allocs.json" --targets --svg-dir "$OUT" | tee "$OUT/report.txt"
java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Report report "$OUT/results.json" \
    --allocs "$OUT/allocs.json" --targets --markdown > "$OUT/report.md"
echo "results: $OUT/results.json, $OUT/allocs.json, $OUT/report.txt, $OUT/report.md, $OUT/bytes-*.svg"
