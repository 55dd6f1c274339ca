#!/usr/bin/env bash
# Backfills at scale, against the local stack.
#   bench/backfill.sh [processes] [buckets] [latency-seconds]     (defaults 200 30 60)
# Starts the stack with deploy/local/run.sh (no demo) unless it is already up; leaves it running.
#  1. preview time: a tree of <processes> jobs with <buckets> days of history, the preview of restating every day
#     from the root asked 20 times (BackfillBenchmark --mode preview);
#  2. live fan-out latency without a backfill, then with one running (LatencyBenchmark at a fixed rate, the same
#     rate both times, while BackfillBenchmark --mode load keeps the runner busy re-running 2 x 60 buckets).
# Prints one RESULT line with both. See bench/README.md for what is measured and the goals it is read against.
set -euo pipefail
LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg)
source "$(dirname "$0")/prepare.sh"
PROCESSES=${1:-200}
BUCKETS=${2:-30}
DURATION=${3:-60}
RATE=${BATCHYARD_BENCH_LATENCY_RATE:-1}
ENDPOINTS=(--registry "http://$HOST:$REGISTRY_PORT" --execution "http://$HOST:$EXECUTION_PORT"
           --queue "http://$HOST:$QUEUE_PORT" --kafka "$HOST:$KAFKA_PORT" --schema-registry "$SCHEMA_REGISTRY_URL")
load() { cut -d' ' -f1-3 /proc/loadavg; }
bench() { java $BENCH_JAVA_OPTS -cp "$BENCH_CP" "$@" "${ENDPOINTS[@]}"; }

echo "[backfill] preview: $PROCESSES jobs x $BUCKETS days (load $(load))"
bench io.batchyard.bench.BackfillBenchmark --mode preview --processes "$PROCESSES" --buckets "$BUCKETS" \
  | tee bench/results/backfill-preview.txt
PREVIEW=$(sed -n 's/^RESULT preview //p' bench/results/backfill-preview.txt)

echo "[backfill] live fan-out latency without a backfill: $RATE lifecycles/s for $DURATION s (load $(load))"
bench io.batchyard.bench.LatencyBenchmark --rate "$RATE" --duration "$DURATION" | tee bench/results/backfill-live-alone.txt
ALONE=$(sed -n 's/^RESULT .*fanout_p50_ms=\([0-9.]*\) fanout_p99_ms=\([0-9.]*\).*/\1 \2/p' bench/results/backfill-live-alone.txt)

echo "[backfill] starting a backfill that keeps the runner busy (load $(load))"
bench io.batchyard.bench.BackfillBenchmark --mode load --buckets 60 --concurrency 2 | tee bench/results/backfill-load.txt
ID=$(sed -n 's/^BACKFILL //p' bench/results/backfill-load.txt)
echo "[backfill] live fan-out latency beside backfill $ID: $RATE lifecycles/s for $DURATION s (load $(load))"
bench io.batchyard.bench.LatencyBenchmark --rate "$RATE" --duration "$DURATION" | tee bench/results/backfill-live-beside.txt
BESIDE=$(sed -n 's/^RESULT .*fanout_p50_ms=\([0-9.]*\) fanout_p99_ms=\([0-9.]*\).*/\1 \2/p' bench/results/backfill-live-beside.txt)
# The comparison holds only if the backfill was still running when the second measurement ended.
STATUS=$(bench io.batchyard.bench.BackfillBenchmark --mode status --id "$ID" | sed -n 's/^STATUS //p')
echo "[backfill] backfill $ID after the measurement: $STATUS"
COVERED=false
case "$STATUS" in state=RUNNING*) COVERED=true ;; esac

read -r A50 A99 <<<"$ALONE"
read -r B50 B99 <<<"$BESIDE"
RATIO=$(awk -v a="$A99" -v b="$B99" 'BEGIN { printf "%.2f", b / a }')
echo "[backfill] machine: $(nproc) cores; load when backfill.sh started: $LOAD_AT_START"
echo "RESULT $PREVIEW live_fanout_p50_ms=$A50 live_fanout_p99_ms=$A99 beside_backfill_fanout_p50_ms=$B50 beside_backfill_fanout_p99_ms=$B99 p99_ratio=$RATIO backfill_running_throughout=$COVERED" \
  | tee bench/results/backfill-result.txt
