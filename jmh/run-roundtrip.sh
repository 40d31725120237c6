#!/usr/bin/env bash
# The real round trip (issue 20): the sync driver against the embedded server (mongo-java-server, memory backend, 127.0.0.1,
# a free port) over TCP, per operation (insertOne, findById, insertMany of 100) with no listener, with ours (defaults(), the
# log sink with its logger off, the Micrometer sink), with Micrometer's listener and with OpenTelemetry's mongo listener
# (no-op exporter). Interleaved rounds: each round runs every subject once, all operations in one JMH invocation (one fork
# per operation), in an order shuffled per round with a fixed seed. The report (report.md, report.json) gives per operation
# and subject ns/op, ops/s and B/op (median over the rounds [min-max]), the overhead against no listener (per-round
# differences, and as a share of the round trip), the listener's own time per operation and its share, and issue 20's target.
#
#   jmh/run-roundtrip.sh [output-dir] [extra JMH options...]        default output: jmh/target/roundtrip
# Environment: ROUNDS (default 3), SEED (11), JMH_ITERATIONS ("-wi 10 -w 2s -i 5 -r 2s": the JIT needs the long warm-up at a
# few thousand operations a second), OPERATIONS (regex of the methods, default "insertOne|findById|insertMany", and on a
# JDK 21+ also "insertOneOnVirtualThread|findByIdOnVirtualThread": the same on a fresh virtual thread per operation), SUBJECTS
# (class names under roundtrip/, default all four), SKIP_BUILD=1 to reuse target/benchmarks.jar, JMH_JAVA (the java that
# runs JMH, default java: JMH_JAVA=$JAVA25_HOME/bin/java for the virtual-thread run, all operations on that one JDK).
# Time: 12 forks a round, about 35 s each (start-up, pre-touch, 1000 orders seeded, 30 s warm-up and measurement): about
# 7 minutes a round, 21 to 23 minutes for the 3 rounds on 2 cores; with the virtual-thread operations 20 forks a round,
# 32 to 38 minutes.
set -euo pipefail
cd "$(dirname "$0")"
source ./jmh-lock.sh
source ./rounds.sh
OUT=${1:-target/roundtrip}
shift || true
EXTRA=("$@")
ROUNDS=${ROUNDS:-3}
SEED=${SEED:-11}
if [ "$(jmh_java_release)" -ge 21 ]; then
  OPERATIONS=${OPERATIONS:-insertOne|findById|insertMany|insertOneOnVirtualThread|findByIdOnVirtualThread}
else
  OPERATIONS=${OPERATIONS:-insertOne|findById|insertMany}
  echo "java $(jmh_java_release): no virtual-thread operations (JMH_JAVA=a JDK 21+ to run them)"
fi
read -r -a ITERATIONS <<< "${JMH_ITERATIONS:--wi 10 -w 2s -i 5 -r 2s}"
read -r -a SUBJECT_LIST <<< "${SUBJECTS:-NoListenerBenchmark OursBenchmark MicrometerListenerBenchmark OpenTelemetryBenchmark}"

# a case: a subject (a class under roundtrip/), all operations
run_case() {
  jmh_case "$OUT/round-$1-${2%%Benchmark}" "^io\.github\.mongoredact\.jmh\.roundtrip\.$2\.($OPERATIONS)\$" -foe true \
      -f 1 "${ITERATIONS[@]}" -prof gc "${EXTRA[@]}"
}

if [ -z "${SKIP_BUILD:-}" ]; then
  mvn -B -q package
fi
mkdir -p "$OUT"
rm -f "$OUT"/round-*
{ echo "java=$(jmh_java_release) rounds=$ROUNDS seed=$SEED iterations=${ITERATIONS[*]} operations=$OPERATIONS extra=${EXTRA[*]}"; uptime; } \
    > "$OUT/load.log"
run_rounds "$OUT" "$ROUNDS" "$SEED" "${SUBJECT_LIST[@]}"

java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.RoundTrip report --markdown "$OUT/report.md" \
    --json "$OUT/report.json" "$OUT"/round-*.json
echo "the round trip: $OUT/report.md, $OUT/report.json; raw: $OUT/round-*.json; load: $OUT/load.log"
