#!/usr/bin/env bash
# Quick mode, for CI: builds the benchmarks and runs every one of them once, short, on a subset of the sizes (the floor
# prototypes included: their setup checks their output against the library's), the typical mix on one of its commands
# (findById; the module's tests check the mix's floors and peers on all six) and the round trip on findById only; then
# counts allocs/op and prints the report. Asserts no timing: it fails only when a benchmark fails (its own checks included)
# or a result lacks one of ns/op, B/op, allocs/op. The benchmarks run inside the JMH process (-f 0, no fork each): a smoke
# run that proves they build, run and check their output, not a measurement (the other scripts fork every case). About 90
# benchmark cases, 2 to 3 minutes on 2 cores with the build and the allocation count (2 min 53 s with a load average of 6 to 9;
# with a fork each it was 5 to 6 minutes there).
# The benchmarks on virtual threads (threads/: ours and no listener on a platform thread and on a fresh virtual thread per
# command; the round trip's findByIdOnVirtualThread) need a JDK 21+: they run in a second short JMH run on the JDK 25
# ($JAVA25_HOME, as .ci/run exports it; default /usr/lib/jvm/temurin-25-jdk-amd64), about 10 s more (7 s of JMH), with their own report
# (ns/op and B/op required; allocs/op is not counted for them: the agent counts the benchmark's thread only).
set -euo pipefail
cd "$(dirname "$0")"
source ./jmh-lock.sh
OUT=target/quick
mkdir -p "$OUT"
JAVA25_HOME=${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
if [ ! -x "$JAVA25_HOME/bin/java" ]; then
  echo "no JDK 25 at $JAVA25_HOME (set JAVA25_HOME): the virtual-thread benchmarks need it"
  exit 1
fi

mvn -B -q package

if ! run_jmh "$OUT/jmh.log" -foe true -f 0 -wi 1 -w 200ms -i 2 -r 200ms -prof gc \
    -p count=0,1000 -p docSize=small -p batch=1000 -p command=findById \
    -e '\.roundtrip\..*\.(insertOne|insertMany)$|OnVirtualThread$|\.threads\.' \
    -rf json -rff "$OUT/results.json"; then
  tail -60 "$OUT/jmh.log" "$OUT/jmh.log.console"
  echo "quick benchmarks FAILED (log: jmh/$OUT/jmh.log)"
  exit 1
fi

java -javaagent:target/allocation-instrumenter.jar -cp target/benchmarks.jar \
    io.github.mongoredact.jmh.alloc.AllocationCount "$OUT/results.json" "$OUT/allocs.json" 50 > "$OUT/allocs.log" 2>&1 \
  || { tail -40 "$OUT/allocs.log"; echo "allocation count FAILED"; exit 1; }

java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Report report "$OUT/results.json" \
    --allocs "$OUT/allocs.json" --targets --svg-dir "$OUT" --require-complete \
    --baseline mix=Clone --baseline mixPair=MicrometerListener --baseline findById=NoListener

if ! JMH_JAVA="$JAVA25_HOME/bin/java" run_jmh "$OUT/vt.log" '\.threads\.|\.roundtrip\..*\.findByIdOnVirtualThread$' \
    -foe true -f 0 -wi 1 -w 200ms -i 2 -r 200ms -prof gc -rf json -rff "$OUT/vt-results.json"; then
  tail -60 "$OUT/vt.log" "$OUT/vt.log.console"
  echo "quick virtual-thread benchmarks FAILED on $JAVA25_HOME (log: jmh/$OUT/vt.log)"
  exit 1
fi
java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Report report "$OUT/vt-results.json" --require-complete \
    --baseline pairOnPlatformThread=NoListener --baseline pairOnVirtualThread=NoListener \
    --baseline findByIdOnVirtualThread=NoListener
echo "quick benchmarks passed (figures from short runs: not for comparison)"
