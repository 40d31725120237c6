#!/usr/bin/env bash
# The benchmarks behind issue 5's ratio targets, measured longer than in the full run (2 forks, 5 x 1 s warm-up,
# 10 x 1 s measurement) so that the ns/op comparisons carry a usable error: started events at 1000 small documents with the
# driver's plain top level (ours specOnly and defaults, clone, toJson), the started + succeeded pair against OpenTelemetry,
# and the metrics path against Micrometer. About 9 minutes on 2 cores. Results in jmh/target/targets/ (or $1).
set -euo pipefail
cd "$(dirname "$0")"
OUT=${1:-target/targets}
mkdir -p "$OUT"

mvn -B -q package

java -jar target/benchmarks.jar -foe true -f 2 -wi 5 -w 1s -i 10 -r 1s -prof gc \
    '(OursSpecOnly|OursDefaults|Clone|ToJson)Benchmark\.started$|(OursDefaults|OpenTelemetry)Benchmark\.startedSucceeded$|metricsPair$' \
    -p count=1,1000 -p docSize=small -p shape=plain \
    -rf json -rff "$OUT/results.json" -o "$OUT/jmh.log" \
  || { tail -60 "$OUT/jmh.log"; echo "benchmarks FAILED (log: $OUT/jmh.log)"; exit 1; }

java -javaagent:target/allocation-instrumenter.jar -Dallocs.detail=true -cp target/benchmarks.jar \
    io.github.mongoredact.jmh.alloc.AllocationCount "$OUT/results.json" "$OUT/allocs.json" > "$OUT/allocs.log" 2>&1 \
  || { tail -40 "$OUT/allocs.log"; echo "allocation count FAILED"; exit 1; }

java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Report report "$OUT/results.json" \
    --allocs "$OUT/allocs.json" --targets | tee "$OUT/report.txt"
java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Report report "$OUT/results.json" \
    --allocs "$OUT/allocs.json" --targets --markdown > "$OUT/report.md"
