#!/usr/bin/env bash
# Compaction throughput of a running queue-service: 10,000 small objects written to its object store, registered
# over REST and merged by the service's own workers, against `cat` of the same files as the physical bound.
# Starts the stack with deploy/local/run.sh (no demo) unless it is already up; leaves it running.
#   bench/compaction.sh [--objects 10000] [--records 40] [--partitions 20] [--clients 4] [--warmup 2000]
set -euo pipefail
# The merge is a long CPU-bound loop (check, sort, copy) that C2 compiles well; the local stack's small-machine default
# (C1 only, which suits the short request handlers of bench/run.sh) cost it a quarter to a third of its speed here.
# A stack this script starts gets the JVM's default compilers unless BATCHYARD_SERVICE_JAVA_OPTS says otherwise; a
# stack already running keeps its own.
export BATCHYARD_SERVICE_JAVA_OPTS=${BATCHYARD_SERVICE_JAVA_OPTS-}
source "$(dirname "$0")/prepare.sh"
QUEUE_PID=$(pgrep -f "queue-service/target/quarkus-app/quarkus-run.jar" | head -1 || true)
if [ -n "$QUEUE_PID" ] && tr '\0' ' ' </proc/"$QUEUE_PID"/cmdline | grep -q TieredStopAtLevel=1; then
  echo "[bench] note: the running queue-service uses C1 only (-XX:TieredStopAtLevel=1); stop the stack first to measure on the JVM's defaults"
fi
java -Xmx1g -cp "$BENCH_CP" io.batchyard.bench.CompactionBenchmark \
  --queue "http://$HOST:$QUEUE_PORT" --store "$COMPACTION_ROOT" "$@" | tee bench/results/compaction.txt
