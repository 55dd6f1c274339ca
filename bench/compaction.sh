#!/usr/bin/env bash
# Compaction throughput of a running queue-service: 10,000 small objects written to its object store, registered
# over REST and merged by the service's own workers, against `cat` of the same files as the physical bound.
# Starts the stack with deploy/local/run.sh (no demo) unless it is already up; leaves it running.
#   bench/compaction.sh [--objects 10000] [--records 40] [--partitions 20] [--clients 4] [--warmup 2000]
set -euo pipefail
source "$(dirname "$0")/prepare.sh"
java -Xmx1g -cp "$BENCH_CP" io.batchyard.bench.CompactionBenchmark \
  --queue "http://127.0.0.1:$QUEUE_PORT" --store "$COMPACTION_ROOT" "$@" | tee bench/results/compaction.txt
