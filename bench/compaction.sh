#!/usr/bin/env bash
# Compaction throughput of a running queue-service: 10,000 small objects written to its object store, registered
# over REST and merged by the service's own workers, against `cat` of the same files as the physical bound.
# Starts the stack with deploy/local/run.sh (no demo) unless it is already up; leaves it running.
#   bench/compaction.sh [--objects 10000] [--records 40] [--partitions 20] [--clients 4] [--warmup 2000]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
source deploy/local/common.sh
mkdir -p bench/results

BATCHYARD_NO_DEMO=1 deploy/local/run.sh
./mvnw -B -q -Pbench -pl bench -am package -DskipTests
# The benchmark registers processes and tables (developer) and drives them (operator).
BATCHYARD_TOKEN=$(deploy/local/token.sh bench developer,operator)
export BATCHYARD_TOKEN
echo "[bench] machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; load $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xmx1g -cp "bench/target/batchyard-bench-0.1.0-SNAPSHOT.jar:bench/target/libs/*" io.batchyard.bench.CompactionBenchmark \
  --queue "http://127.0.0.1:$QUEUE_PORT" --store "$COMPACTION_ROOT" "$@" | tee bench/results/compaction.txt
