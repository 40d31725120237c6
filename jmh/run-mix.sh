#!/usr/bin/env bash
# The typical command mix (issue 20): six commands as a replica set's client sends them and as the driver hands them over
# (support/MixCommands: find by _id, find by an indexed field with a projection and a limit, updateOne by _id with $set,
# insertOne, a small aggregate, a getMore reply of 100 documents; with lsid, $clusterTime and its signature, and
# $readPreference where the driver adds them). Subjects: ours (specOnly, defaults: the item's event; metrics only: the
# started + succeeded pair), the floors (framing copy, one pass, each also with the forwarded event), the peers (clone(), the
# driver's encoding, Micrometer's listener). Interleaved rounds as in run-targets.sh: each round runs every subject once, all
# commands in one JMH invocation (one fork per command), in an order shuffled per round with a fixed seed. The report gives
# per subject and command the median ns/op [min-max] and B/op over the rounds, the weighted mean of the mix, and ours against
# the floors and the peers (report.md, report.json); then allocs/op of round 1's cases (round1-allocs.md).
#
#   jmh/run-mix.sh [output-dir] [extra JMH options...]        default output: jmh/target/mix
# Environment: ROUNDS (default 3), SEED (11), JMH_ITERATIONS ("-wi 3 -w 500ms -i 4 -r 500ms"), COMMANDS (the commands, comma-
# separated, default all six), WEIGHTS (findById=35,findIndexed=25,updateOne=15,insertOne=10,aggregate=5,getMore=10),
# SUBJECTS (Class.method names, default all below), SKIP_BUILD=1 to reuse target/benchmarks.jar.
# Time: 60 forks a round (10 subjects x 6 commands), about 6.5 s each with start-up and pre-touch: about 7 minutes a round,
# 20 to 22 minutes for the 3 rounds on 2 cores.
set -euo pipefail
cd "$(dirname "$0")"
source ./jmh-lock.sh
source ./rounds.sh
OUT=${1:-target/mix}
shift || true
EXTRA=("$@")
ROUNDS=${ROUNDS:-3}
SEED=${SEED:-11}
COMMANDS=${COMMANDS:-findById,findIndexed,updateOne,insertOne,aggregate,getMore}
WEIGHTS=${WEIGHTS:-findById=35,findIndexed=25,updateOne=15,insertOne=10,aggregate=5,getMore=10}
read -r -a ITERATIONS <<< "${JMH_ITERATIONS:--wi 3 -w 500ms -i 4 -r 500ms}"
read -r -a SUBJECT_LIST <<< "${SUBJECTS:-OursSpecOnlyBenchmark.mix OursDefaultsBenchmark.mix CloneBenchmark.mix \
mix.FloorFramingCopyBenchmark.mix mix.FloorOnePassBenchmark.mix mix.FloorForwardedBenchmark.mix \
mix.CodecEncodingBenchmark.mix MicrometerSinkBenchmark.mixPair MicrometerListenerBenchmark.mixPair}"

# a case: a subject (Class.method, under io.github.mongoredact.jmh), all commands
run_case() {
  local name=${2%%Benchmark.*}
  jmh_case "$OUT/round-$1-${name##*.}" "^io\.github\.mongoredact\.jmh\.${2//./\\.}\$" -foe true -f 1 "${ITERATIONS[@]}" \
      -prof gc -p command="$COMMANDS" "${EXTRA[@]}"
}

if [ -z "${SKIP_BUILD:-}" ]; then
  mvn -B -q package
fi
mkdir -p "$OUT"
rm -f "$OUT"/round-* "$OUT"/round1*
{ echo "rounds=$ROUNDS seed=$SEED iterations=${ITERATIONS[*]} commands=$COMMANDS extra=${EXTRA[*]}"; uptime; } > "$OUT/load.log"
run_rounds "$OUT" "$ROUNDS" "$SEED" "${SUBJECT_LIST[@]}"

java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Mix report --weights "$WEIGHTS" --markdown "$OUT/report.md" \
    --json "$OUT/report.json" "$OUT"/round-*.json
round1_allocs "$OUT" --baseline mix=Clone --baseline mixPair=MicrometerListener
echo "the mix: $OUT/report.md, $OUT/report.json; allocs/op: $OUT/round1-allocs.md; load: $OUT/load.log"
