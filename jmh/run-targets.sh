#!/usr/bin/env bash
# The targets of issues 11 and 20, measured so that the figures can be trusted on this shared VM: every subject of the targets
# (ours, the floor prototypes, the peers) at every size of issue 20 (1, 10, 100 and 1000 small documents; 1 and 100 documents
# of 1 KiB) on the driver's plain top level, and specOnly() and clone() also where the command is held as one buffer, in
# interleaved rounds. Each round runs every case (a subject at one document size and shape, all its counts) once, in its own
# JMH invocation (one fork per count), in an order shuffled per round with a fixed seed; every fork has a fixed, pre-touched
# heap (the benchmarks' @Fork). The report gives per subject the median ns/op and B/op over the rounds with [min-max], and
# issue 20's target ratios (of the medians, with the spread of the per-round ratios), as Markdown (report.md, to paste into
# RESULTS.md and the README) and JSON (report.json); then allocs/op of every case (round1-allocs.md).
#
#   jmh/run-targets.sh [output-dir] [extra JMH options...]        default output: jmh/target/targets
# Environment:
#   ROUNDS          rounds (default 4)
#   SIZES           document sizes and their counts (default "small:1,10,100,1000 kib:1,100")
#   SUBJECTS        Class.method names at the plain top level (default: the subjects of the targets, below)
#   ONE_BUFFER      Class.method names also measured at shape=bytebuf (default "OursSpecOnlyBenchmark.started
#                   CloneBenchmark.started"; empty for none)
#   JMH_ITERATIONS  (default "-wi 3 -w 1s -i 4 -r 1s"), SEED (11), SKIP_BUILD=1 to reuse target/benchmarks.jar
# Time: 72 forks a round with the defaults (22 JMH invocations), about 10 s each with start-up and pre-touch: about 13 minutes
# a round, 50 to 55 minutes for the 4 rounds on 2 cores. ROUNDS=2 halves it; SIZES="small:1,1000" (the sizes of issue 11)
# takes about a third.
# Issue 5's comparisons with toJson() and OpenTelemetry are in run-full.sh, or add them to SUBJECTS. Issue 11's table from
# the same round files: java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Rounds report --targets issue11 ...
# A smoke test of the script itself (figures meaningless):
#   ROUNDS=1 SIZES="small:1" JMH_ITERATIONS="-wi 1 -w 100ms -i 1 -r 100ms" jmh/run-targets.sh target/targets-smoke
set -euo pipefail
cd "$(dirname "$0")"
source ./jmh-lock.sh
source ./rounds.sh
OUT=${1:-target/targets}
shift || true
EXTRA=("$@")
ROUNDS=${ROUNDS:-4}
SEED=${SEED:-11}
read -r -a ITERATIONS <<< "${JMH_ITERATIONS:--wi 3 -w 1s -i 4 -r 1s}"
read -r -a SIZE_LIST <<< "${SIZES:-small:1,10,100,1000 kib:1,100}"
read -r -a SUBJECT_LIST <<< "${SUBJECTS:-OursDefaultsBenchmark.started OursSpecOnlyBenchmark.started \
CloneBenchmark.started FloorFramingCopyBenchmark.started FloorOnePassBenchmark.started FloorForwardedBenchmark.started \
CodecEncodingBenchmark.started MicrometerSinkBenchmark.metricsPair MicrometerListenerBenchmark.metricsPair}"
read -r -a ONE_BUFFER_LIST <<< "${ONE_BUFFER-OursSpecOnlyBenchmark.started CloneBenchmark.started}"

# a case: Class.method@docSize:counts@shape
CASES=()
for size in "${SIZE_LIST[@]}"; do
  for subject in "${SUBJECT_LIST[@]}"; do
    CASES+=("$subject@$size@plain")
  done
  for subject in "${ONE_BUFFER_LIST[@]}"; do
    CASES+=("$subject@$size@bytebuf")
  done
done

run_case() {
  local subject size shape name
  IFS=@ read -r subject size shape <<< "$2"
  # the class's name, and the method's where it is not started() (two methods of one class must not share a file)
  name=${subject%%Benchmark.*}
  [ "${subject##*.}" = started ] || name="$name-${subject##*.}"
  jmh_case "$OUT/round-$1-$name-${size%%:*}$([ "$shape" = plain ] || echo "-$shape")" \
      "^io\.github\.mongoredact\.jmh\.${subject//./\\.}\$" -foe true -f 1 "${ITERATIONS[@]}" -prof gc \
      -p count="${size#*:}" -p shape="$shape" -p docSize="${size%%:*}" "${EXTRA[@]}"
}

if [ -z "${SKIP_BUILD:-}" ]; then
  mvn -B -q package
fi
mkdir -p "$OUT"
rm -f "$OUT"/round-* "$OUT"/round1*
{ echo "rounds=$ROUNDS seed=$SEED iterations=${ITERATIONS[*]} sizes=${SIZE_LIST[*]} extra=${EXTRA[*]}"; uptime; } \
    > "$OUT/load.log"
run_rounds "$OUT" "$ROUNDS" "$SEED" "${CASES[@]}"

java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Rounds report --markdown "$OUT/report.md" \
    --json "$OUT/report.json" "$OUT"/round-*.json
# allocs/op with the per-event targets of issue 5 that issue 11 keeps (4 allocs/op, B/op near the output size)
round1_allocs "$OUT" --targets
echo "medians over the rounds and issue 20's targets: $OUT/report.md, $OUT/report.json"
echo "allocs/op: $OUT/round1-allocs.md; raw: $OUT/round-*.json; load: $OUT/load.log"
