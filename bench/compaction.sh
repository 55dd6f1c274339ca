#!/usr/bin/env bash
# Compaction merge throughput (issue 6): 10,000 small objects merged by 2 in-process queue-service workers over an
# embedded PostgreSQL, against `cat` of the same files as the physical bound. Needs no running stack.
#   bench/compaction.sh [--objects 10000] [--records 40] [--partitions 20] [--workers 2]
# MAVEN_REPO_LOCAL=/path selects the local Maven repository.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
mkdir -p bench/results
REPO=${MAVEN_REPO_LOCAL:+-Dmaven.repo.local=$MAVEN_REPO_LOCAL}
./mvnw -B -q $REPO -Pbench -pl bench -am install -DskipTests
echo "[bench] machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; load $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xmx2g -cp "bench/target/batchyard-bench-0.1.0-SNAPSHOT.jar:bench/target/libs/*" io.batchyard.bench.CompactionBenchmark \
  "$@" | tee bench/results/compaction.txt
