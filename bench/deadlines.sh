#!/usr/bin/env bash
# Data deadlines at scale: the delay from a deadline's due time to its MISSED event on batchyard.execution.deadlines,
# for many deadlines due in the same minute, against the local stack.
#   bench/deadlines.sh [deadlines]     (default 10000)
# Starts the stack with deploy/local/run.sh (no demo) unless it is already up; leaves it running. See bench/README.md
# for what is measured and the goal it is read against (p99 <= 2 s).
set -euo pipefail
LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg)
source "$(dirname "$0")/prepare.sh"
COUNT=${1:-10000}
ENDPOINTS=(--registry "http://$HOST:$REGISTRY_PORT" --execution "http://$HOST:$EXECUTION_PORT"
           --queue "http://$HOST:$QUEUE_PORT" --kafka "$HOST:$KAFKA_PORT" --schema-registry "$SCHEMA_REGISTRY_URL")

echo "[deadlines] $COUNT deadlines due in the same minute (load $(cut -d' ' -f1-3 /proc/loadavg))"
FAILED=0
java $BENCH_JAVA_OPTS -cp "$BENCH_CP" io.batchyard.bench.DeadlineBenchmark --deadlines "$COUNT" "${ENDPOINTS[@]}" \
  | tee bench/results/deadlines.txt || FAILED=1
echo "[deadlines] machine: $(nproc) cores; load when deadlines.sh started: $LOAD_AT_START"
grep '^RESULT ' bench/results/deadlines.txt | tee bench/results/deadlines-result.txt \
  || echo "RESULT none (the run printed no RESULT line)"
# A deadline without its MISSED event, or with two, fails the run whatever the speed.
if [ "$FAILED" != 0 ]; then
  echo "[deadlines] some deadlines had no MISSED event, or more than one" >&2
  exit 2
fi
