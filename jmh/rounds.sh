# Sourced by run-targets.sh, run-mix.sh and run-roundtrip.sh (after jmh-lock.sh): interleaved rounds of JMH cases.
#   run_rounds OUT ROUNDS SEED CASE...   runs every case once a round, in an order shuffled per round with the seed (Rounds
#       order), through the sourcing script's run_case ROUND CASE, which returns non-zero when the case failed; appends the
#       load average after each case, then how long the rounds took, to OUT/load.log
#   jmh_case PREFIX [JMH options...]     one JMH invocation: results in PREFIX.json, log in PREFIX.log (and .log.console);
#       on failure prints the end of the log
#   round1_allocs OUT [Report options...]  allocs/op of round 1's cases (deterministic: counted once) and the benchstat-style
#       report of round 1 (its ns/op are one round's) in OUT/round1-allocs.md
run_rounds() {
  local out=$1 rounds=$2 seed=$3
  shift 3
  local started round case
  started=$(date +%s)
  for round in $(seq 1 "$rounds"); do
    for case in $(java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Rounds order --seed "$seed" \
        --round "$round" "$@"); do
      echo "round $round/$rounds: $case"
      run_case "$round" "$case" || return 1
      echo "round $round $case $(uptime)" >> "$out/load.log"
    done
  done
  echo "measured in $(( $(date +%s) - started )) s" | tee -a "$out/load.log"
}

jmh_case() {
  local prefix=$1
  shift
  if ! run_jmh "$prefix.log" "$@" -rf json -rff "$prefix.json"; then
    tail -40 "$prefix.log" "$prefix.log.console"
    echo "benchmark FAILED (log: jmh/$prefix.log)"
    return 1
  fi
}

round1_allocs() {
  local out=$1
  shift
  java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Rounds merge "$out/round1.json" "$out"/round-1-*.json
  java -javaagent:target/allocation-instrumenter.jar -cp target/benchmarks.jar io.github.mongoredact.jmh.alloc.AllocationCount \
      "$out/round1.json" "$out/allocs.json" > "$out/allocs.log" 2>&1 \
    || { tail -40 "$out/allocs.log"; echo "allocation count FAILED"; return 1; }
  java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Report report "$out/round1.json" \
      --allocs "$out/allocs.json" --markdown "$@" > "$out/round1-allocs.md"
}
