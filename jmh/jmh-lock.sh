# Sourced by the run-*.sh scripts. JMH refuses to start while another JMH run on the machine holds /tmp/jmh.lock:
# wait for the lock instead of failing, which also keeps two measurements from running at once.
#   run_jmh LOG [JMH options...]     runs java -jar target/benchmarks.jar with -o LOG; console output in LOG.console;
#                                    the java is $JMH_JAVA where set (a JDK 21+ for the ...OnVirtualThread benchmarks)
#   jmh_java_release                 prints the release of that java (17, 25)
run_jmh() {
  local log=$1
  shift
  local waited=0
  while true; do
    if "${JMH_JAVA:-java}" -jar target/benchmarks.jar "$@" -o "$log" > "$log.console" 2>&1; then
      return 0
    fi
    if ! grep -qs "Unable to acquire the JMH lock" "$log.console" "$log"; then
      return 1
    fi
    if [ "$waited" -ge "${JMH_LOCK_WAIT_SECONDS:-3600}" ]; then
      echo "gave up waiting for another JMH run to release /tmp/jmh.lock after ${waited} s"
      return 1
    fi
    [ "$waited" -gt 0 ] || echo "another JMH run holds /tmp/jmh.lock: waiting"
    sleep 10
    waited=$((waited + 10))
  done
}

jmh_java_release() {
  "${JMH_JAVA:-java}" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p'
}
