#!/usr/bin/env bash
# Data-aware triggering at scale, against the local stack.
#   bench/triggering.sh [processes] [events-per-second] [duration-seconds] [drain-seconds]  (defaults 10000 1000 60 60)
# Registers the processes (fan-in and fan-out units of ten, each consumer with a trigger policy) through
# registry-service's POST /pipelines/apply, writes BatchEnqueued events straight onto batchyard.queue.batches at the
# rate for the duration, and measures trigger latency (event acknowledged by the broker -> launch received by the
# launcher hook's sink that the client serves) and GET /why latency sampled during the load. See bench/README.md.
# The processes registered are kept for the next run on the same stack with as many processes (with hours of its
# own): registering and deploying 10,000 of them takes far longer than the measured minute.
#
# execution-service must post launches to the client's sink (batchyard.trigger.launcher.kind=http): the stack is
# started with that setting when this script starts it; a stack already running without it is left alone and the
# script stops (deploy/local/stop.sh first).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PROCESSES=${1:-10000}
RATE=${2:-1000}
DURATION=${3:-60}
DRAIN=${4:-60}
SINK_PORT=${BATCHYARD_BENCH_SINK_PORT:-18099}
export BATCHYARD_TRIGGER_LAUNCHER_KIND=http
export BATCHYARD_TRIGGER_LAUNCHER_URL=http://127.0.0.1:$SINK_PORT/launch
# one attempt per launch: a launch the sink did not take shows as missing, not as a slow one
export BATCHYARD_TRIGGER_LAUNCHER_ATTEMPTS=${BATCHYARD_TRIGGER_LAUNCHER_ATTEMPTS:-1}

# Oozie parents are started by their data only once deployed: the runner's script directory gets a deployment script
# for their process type that does nothing (a copy of the demo scripts beside it), and the deployment poller looks
# every second, so that a few thousand consumers deploy in a minute or two.
WORK_DIR=${BATCHYARD_WORK:-$ROOT/deploy/local/.work}
if [ -z "${BATCHYARD_RUNNER_SCRIPT_DIR:-}" ]; then
  export BATCHYARD_RUNNER_SCRIPT_DIR=$WORK_DIR/bench-scripts
  mkdir -p "$BATCHYARD_RUNNER_SCRIPT_DIR"
  cp -R "$ROOT/deploy/local/demo-scripts/." "$BATCHYARD_RUNNER_SCRIPT_DIR/"
fi
printf '#!/bin/sh\n# the triggering benchmark'"'"'s Oozie consumers: nothing to deploy\nexit 0\n' \
  >"$BATCHYARD_RUNNER_SCRIPT_DIR/process-type-1.sh"
chmod -R a+rX "$BATCHYARD_RUNNER_SCRIPT_DIR"
chmod a+x "$BATCHYARD_RUNNER_SCRIPT_DIR/process-type-1.sh"
export BATCHYARD_DEPLOY_POLL_INTERVAL=${BATCHYARD_DEPLOY_POLL_INTERVAL:-PT1S}

PID_FILE=$WORK_DIR/pids/execution-service.pid
if [ -f "$PID_FILE" ] && kill -0 "$(cat "$PID_FILE")" 2>/dev/null; then
  if ! tr '\0' '\n' <"/proc/$(cat "$PID_FILE")/environ" | grep -qx "BATCHYARD_TRIGGER_LAUNCHER_URL=$BATCHYARD_TRIGGER_LAUNCHER_URL"; then
    echo "[trigger] execution-service is running without the launcher hook to this benchmark's sink" >&2
    echo "[trigger] (BATCHYARD_TRIGGER_LAUNCHER_URL=$BATCHYARD_TRIGGER_LAUNCHER_URL): stop the stack" >&2
    echo "[trigger] (deploy/local/stop.sh) and run this script again, it starts the stack with it" >&2
    exit 1
  fi
fi
# BATCHYARD_BENCH_DROP_BACKLOG=1: an earlier run left events execution-service has not applied yet; rather than
# waiting for them (minutes when the stack applies fewer events per second than the run offered), stop
# execution-service, move its trigger consumer group to the end of the batches topic, and start it again below.
if [ "${BATCHYARD_BENCH_DROP_BACKLOG:-0}" = 1 ] && [ -f "$PID_FILE" ] && kill -0 "$(cat "$PID_FILE")" 2>/dev/null \
   && [ -f "$ROOT/bench/target/batchyard-bench-0.1.0-SNAPSHOT.jar" ]; then
  source "$ROOT/deploy/local/common.sh"
  echo "[trigger] stopping execution-service to drop an earlier run's backlog"
  kill "$(cat "$PID_FILE")"
  while kill -0 "$(cat "$PID_FILE")" 2>/dev/null; do sleep 1; done
  java -cp "$ROOT/bench/target/batchyard-bench-0.1.0-SNAPSHOT.jar:$ROOT/bench/target/libs/*" \
    io.batchyard.bench.TriggerBacklog --kafka "$HOST:$KAFKA_PORT"
fi
source "$ROOT/bench/prepare.sh"
OUT=bench/results/triggering.txt
echo "[trigger] $PROCESSES processes, $RATE events/s for $DURATION s (load $(cut -d' ' -f1-3 /proc/loadavg))"
STATUS=0
java $BENCH_JAVA_OPTS -cp "$BENCH_CP" io.batchyard.bench.TriggerBenchmark --processes "$PROCESSES" \
  --rate "$RATE" --duration "$DURATION" --drain "$DRAIN" --sink-port "$SINK_PORT" --units-file "$WORK_DIR/bench-trigger-units-$PROCESSES.json" \
  --registry "http://$HOST:$REGISTRY_PORT" --execution "http://$HOST:$EXECUTION_PORT" \
  --queue "http://$HOST:$QUEUE_PORT" --kafka "$HOST:$KAFKA_PORT" --schema-registry "$SCHEMA_REGISTRY_URL" \
  > >(tee "$OUT") || STATUS=$?
sleep 1   # tee's last lines
echo "[trigger] machine: $(nproc) cores; load at the end $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT"
grep '^RESULT ' "$OUT" >bench/results/triggering-result.txt || echo "RESULT none" >bench/results/triggering-result.txt
# Missing or duplicated launches fail the run whatever the speed.
[ "$STATUS" = 0 ] || { echo "[trigger] launches missing or duplicated, or events not written (exit $STATUS)" >&2; exit 2; }
