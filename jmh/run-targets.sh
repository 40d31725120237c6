#!/usr/bin/env bash
# Issue 11's targets, measured so that the figures can be trusted on this shared VM: every subject of the targets (ours,
# the floor prototypes, the peers) at 1 and 1000 small documents on the driver's plain top level, in interleaved rounds.
# Each round runs every subject once, each in its own JMH invocation and fork (one fork per document count), in an order
# shuffled per round with a fixed seed; every fork has a fixed, pre-touched heap (the benchmarks' @Fork). The report gives
# per subject the median ns/op and B/op over the rounds with [min-max], and the target ratios (of the medians, with the
# spread of the per-round ratios), as Markdown (report.md, to paste into RESULTS.md and the README) and JSON (report.json);
# then allocs/op of every case (round1-allocs.md). Issue 5's comparisons with toJson() and OpenTelemetry are in run-full.sh,
# or add them: SUBJECTS="... ToJsonBenchmark.started OpenTelemetryBenchmark.startedSucceeded OursDefaultsBenchmark.startedSucceeded".
#
#   jmh/run-targets.sh [output-dir] [extra JMH options...]        default output: jmh/target/targets
# Environment: ROUNDS (default 4), SEED (11), JMH_ITERATIONS ("-wi 5 -w 1s -i 5 -r 1s"), SUBJECTS (space-separated
# Class.method names, default all below), SKIP_BUILD=1 to reuse target/benchmarks.jar.
# About 20 minutes with the defaults on 2 cores (22 forks a round, ~13 s each with start-up and pre-touch).
# A smoke test of the script itself (figures meaningless):
#   ROUNDS=1 JMH_ITERATIONS="-wi 1 -w 100ms -i 1 -r 100ms" jmh/run-targets.sh target/targets-smoke
set -euo pipefail
cd "$(dirname "$0")"
source ./jmh-lock.sh
OUT=${1:-target/targets}
shift || true
ROUNDS=${ROUNDS:-4}
SEED=${SEED:-11}
read -r -a ITERATIONS <<< "${JMH_ITERATIONS:--wi 5 -w 1s -i 5 -r 1s}"
read -r -a SUBJECT_LIST <<< "${SUBJECTS:-OursDefaultsBenchmark.started OursSpecOnlyBenchmark.started \
CloneBenchmark.started FloorFramingCopyBenchmark.started FloorOnePassBenchmark.started FloorTwoPassBenchmark.started \
CodecEncodingBenchmark.started CopyOfBenchmark.started MicrometerSinkBenchmark.metricsPair \
MicrometerListenerBenchmark.metricsPair}"

if [ -z "${SKIP_BUILD:-}" ]; then
  mvn -B -q package
fi
mkdir -p "$OUT"
rm -f "$OUT"/round-* "$OUT"/round1*
CP=target/benchmarks.jar
{ echo "rounds=$ROUNDS seed=$SEED iterations=${ITERATIONS[*]} extra=$*"; uptime; } > "$OUT/load.log"

for round in $(seq 1 "$ROUNDS"); do
  for subject in $(java -cp "$CP" io.github.mongoredact.jmh.report.Rounds order --seed "$SEED" --round "$round" \
      "${SUBJECT_LIST[@]}"); do
    name=${subject%%Benchmark.*}
    echo "round $round/$ROUNDS: $subject"
    if ! run_jmh "$OUT/round-$round-$name.log" "^io\.github\.mongoredact\.jmh\.${subject//./\\.}\$" -foe true -f 1 \
        "${ITERATIONS[@]}" -prof gc -p count=1,1000 -p shape=plain -p docSize=small "$@" \
        -rf json -rff "$OUT/round-$round-$name.json"; then
      tail -40 "$OUT/round-$round-$name.log" "$OUT/round-$round-$name.log.console"
      echo "benchmark FAILED: $subject in round $round (log: jmh/$OUT/round-$round-$name.log)"
      exit 1
    fi
    echo "round $round $subject $(uptime)" >> "$OUT/load.log"
  done
done

java -cp "$CP" io.github.mongoredact.jmh.report.Rounds report --markdown "$OUT/report.md" --json "$OUT/report.json" \
    "$OUT"/round-*.json

# allocs/op (deterministic: counted once, on round 1's cases) and the per-event targets of issue 5 that issue 11 keeps
# (4 allocs/op, B/op near the output size), in the benchstat-style report of round 1 (its ns/op are one round's: use report.md)
java -cp "$CP" io.github.mongoredact.jmh.report.Rounds merge "$OUT/round1.json" "$OUT"/round-1-*.json
java -javaagent:target/allocation-instrumenter.jar -cp "$CP" io.github.mongoredact.jmh.alloc.AllocationCount \
    "$OUT/round1.json" "$OUT/allocs.json" > "$OUT/allocs.log" 2>&1 \
  || { tail -40 "$OUT/allocs.log"; echo "allocation count FAILED"; exit 1; }
java -cp "$CP" io.github.mongoredact.jmh.report.Report report "$OUT/round1.json" --allocs "$OUT/allocs.json" --targets \
    --markdown > "$OUT/round1-allocs.md"
echo "medians over the rounds and issue 11's targets: $OUT/report.md, $OUT/report.json"
echo "allocs/op: $OUT/round1-allocs.md; raw: $OUT/round-*.json; load: $OUT/load.log"
