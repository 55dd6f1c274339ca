#!/usr/bin/env bash
# Does InitJob's cost grow with history? Against the local stack: one warm-up run, one run on the (nearly) empty
# database, then 100,000 archived batches and 10,000 queued rows of other processes are added to queue-service's
# database, then the same run again. Ends with one line:
#   RESULT initjob_p99_empty_ms=<n> initjob_p99_history_ms=<n> ratio=<history/empty>
#   bench/history.sh [chains] [lifecycles-per-chain] [archived] [queued]     (defaults 8 x 25, 100000, 10000)
# Starts the stack with deploy/local/run.sh (no demo) unless it is already up; leaves it running.
set -euo pipefail
source "$(dirname "$0")/prepare.sh"
CHAINS=${1:-8}
LIFECYCLES=${2:-25}
ARCHIVED=${3:-100000}
QUEUED=${4:-10000}

lifecycles() {
  java $BENCH_JAVA_OPTS -cp "$BENCH_CP" io.batchyard.bench.LifecycleBenchmark \
    --chains "$CHAINS" --lifecycles "$LIFECYCLES" \
    --registry "http://$HOST:$REGISTRY_PORT" --execution "http://$HOST:$EXECUTION_PORT" \
    --queue "http://$HOST:$QUEUE_PORT" --kafka "$HOST:$KAFKA_PORT" --schema-registry "$SCHEMA_REGISTRY_URL" | tee "bench/results/history-$1.txt"
}
p99() { sed -n 's/^INITJOB .*p99_ms=\([0-9.]*\).*/\1/p' "bench/results/history-$1.txt"; }

echo "[bench] warm-up run (JIT), not counted"
lifecycles warmup >/dev/null
echo "[bench] run on the empty database"
lifecycles empty

echo "[bench] adding $ARCHIVED archived batches and $QUEUED queued rows of other processes to batchyard_queue"
# Other processes' history: ids far from the benchmark's. Batch ids come from the table's own generator and queue ids
# from consumption_queue's, as the service's would, so nothing collides with what the service writes later.
PGPASSWORD=$PG_PASSWORD psql -h "$PG_HOST" -p "$PG_PORT" -U batchyard -d batchyard_queue -v ON_ERROR_STOP=1 -q <<SQL
BEGIN;
CREATE TEMP TABLE history_batch ON COMMIT DROP AS
  WITH made AS (INSERT INTO batch (batch_type) SELECT 'Type1' FROM generate_series(1, $ARCHIVED + $QUEUED)
                RETURNING batch_id)
  SELECT batch_id, row_number() OVER (ORDER BY batch_id) AS n FROM made;
INSERT INTO archived_queue (queue_id, source_batch_id, target_batch_id, insert_ts, source_process_id, start_ts,
                            end_ts, batch_state, batch_marking, process_id)
  SELECT nextval(pg_get_serial_sequence('consumption_queue', 'queue_id')), batch_id, NULL,
         now() - interval '30 days', 800000000 + n % 500, now() - interval '29 days', now() - interval '29 days', 2,
         'history', 810000000 + n % 500
  FROM history_batch WHERE n <= $ARCHIVED;
INSERT INTO consumption_queue (source_batch_id, source_process_id, batch_state, batch_marking, process_id)
  SELECT batch_id, 800000000 + n % 500, 0, 'history', 820000000 + n % 100
  FROM history_batch WHERE n > $ARCHIVED;
COMMIT;
ANALYZE;
SQL
echo "[bench] run with history"
lifecycles history

EMPTY=$(p99 empty)
HISTORY=$(p99 history)
RATIO=$(awk -v h="$HISTORY" -v e="$EMPTY" 'BEGIN { printf "%.2f", h / e }')
echo "RESULT initjob_p99_empty_ms=$EMPTY initjob_p99_history_ms=$HISTORY ratio=$RATIO" | tee bench/results/history-result.txt
