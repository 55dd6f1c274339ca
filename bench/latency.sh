#!/usr/bin/env bash
# Fan-out and triggering latency at a fixed offered load, against the local stack.
#   bench/latency.sh [duration-seconds]     (default 60 per rate)
# Starts the stack with deploy/local/run.sh (no demo) unless it is already up; leaves it running. Measures the
# saturation rate first (a short closed-loop LifecycleBenchmark, 8 chains x 10), then runs LatencyBenchmark open loop
# at 10 % and at 50 % of it. See bench/README.md for what is measured and the goals it is read against.
set -euo pipefail
LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg)
source "$(dirname "$0")/prepare.sh"
DURATION=${1:-60}
ENDPOINTS=(--registry "http://$HOST:$REGISTRY_PORT" --execution "http://$HOST:$EXECUTION_PORT"
           --queue "http://$HOST:$QUEUE_PORT" --kafka "$HOST:$KAFKA_PORT" --schema-registry "$SCHEMA_REGISTRY_URL")
load() { cut -d' ' -f1-3 /proc/loadavg; }

echo "[latency] saturation: closed loop, 8 chains x 10 lifecycles (load $(load))"
java $BENCH_JAVA_OPTS -cp "$BENCH_CP" io.batchyard.bench.LifecycleBenchmark --chains 8 --lifecycles 10 \
  "${ENDPOINTS[@]}" | tee bench/results/latency-saturation.txt
TRANSITIONS=$(sed -n 's/^METRICS transitions_per_s=\([0-9.]*\).*/\1/p' bench/results/latency-saturation.txt)
[ -n "$TRANSITIONS" ] || { echo "[latency] the saturation run printed no METRICS line" >&2; exit 1; }
# A lifecycle is eight transitions: InitJob, InitStep and HaltStep of three steps, HaltJob.
SATURATION=$(awk -v t="$TRANSITIONS" 'BEGIN { printf "%.2f", t / 8 }')
echo "[latency] saturation: $SATURATION lifecycles/s ($TRANSITIONS transitions/s)"

FAILED=0
SUMMARY=()
for SHARE in 10 50; do
  RATE=$(awk -v s="$SATURATION" -v p="$SHARE" 'BEGIN { printf "%.2f", s * p / 100 }')
  LOAD=$(load)
  echo "[latency] $SHARE % of saturation: $RATE lifecycles/s for $DURATION s (load $LOAD)"
  java $BENCH_JAVA_OPTS -cp "$BENCH_CP" io.batchyard.bench.LatencyBenchmark --rate "$RATE" --duration "$DURATION" \
    "${ENDPOINTS[@]}" | tee "bench/results/latency-$SHARE.txt" || FAILED=1
  RESULT=$(grep '^RESULT ' "bench/results/latency-$SHARE.txt" || echo "RESULT none (the run printed no RESULT line)")
  SUMMARY+=("[latency] $SHARE % of $SATURATION lifecycles/s, load at start $LOAD:" "$RESULT")
done

echo "[latency] machine: $(nproc) cores; load when latency.sh started: $LOAD_AT_START"
printf '%s\n' "${SUMMARY[@]}" | tee bench/results/latency-result.txt
# Missing or duplicated fan-outs or triggers, or failed calls, fail the run whatever the speed.
if [ "$FAILED" != 0 ]; then
  echo "[latency] a run had missing or duplicated fan-outs or triggers, or failed calls" >&2
  exit 2
fi
