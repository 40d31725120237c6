#!/usr/bin/env bash
# Full run: every benchmark and size, one fork each, 3 x 500 ms warm-up and 5 x 500 ms measurement iterations (the
# annotations' defaults), with -prof gc for B/op; then allocs/op under the allocation-counting agent; then the report,
# the target checks and the charts. About 20 minutes on 2 cores.
#   jmh/run-full.sh [output-dir] [extra JMH options...]      e.g. jmh/run-full.sh target/full 'OursDefaults'
# The ...OnVirtualThread benchmarks need a JDK 21+: on an older java they are left out (JMH_JAVA=$JAVA25_HOME/bin/java
# runs them, and everything else, on that JDK); allocs/op is not counted for them.
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

VIRTUAL=()
if [ "$(jmh_java_release)" -lt 21 ]; then
  echo "java $(jmh_java_release): the ...OnVirtualThread benchmarks are left out (JMH_JAVA=a JDK 21+ to run them)"
  VIRTUAL=(-e 'OnVirtualThread$')
fi
run_jmh "$OUT/jmh.log" -foe true -prof gc -rf json -rff "$OUT/results.json" "${VIRTUAL[@]}" "$@" \
  || { tail -60 "$OUT/jmh.log" "$OUT/jmh.log.console"; echo "benchmarks FAILED (log: $OUT/jmh.log)"; exit 1; }

java -javaagent:target/allocation-instrumenter.jar -cp target/benchmarks.jar \
    io.github.mongoredact.jmh.alloc.AllocationCount "$OUT/results.json" "$OUT/allocs.json" > "$OUT/allocs.log" 2>&1 \
  || { tail -40 "$OUT/allocs.log"; echo "allocation count FAILED"; exit 1; }

BASELINES=(--baseline pairOnPlatformThread=NoListener --baseline pairOnVirtualThread=NoListener
    --baseline findByIdOnVirtualThread=NoListener --baseline insertOneOnVirtualThread=NoListener)
java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Report report "$OUT/results.json" \
    --allocs "$OUT/allocs.json" --targets --svg-dir "$OUT" "${BASELINES[@]}" | tee "$OUT/report.txt"
java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Report report "$OUT/results.json" \
    --allocs "$OUT/allocs.json" --targets --markdown "${BASELINES[@]}" > "$OUT/report.md"
echo "results: $OUT/results.json, $OUT/allocs.json, $OUT/report.txt, $OUT/report.md, $OUT/bytes-*.svg"
