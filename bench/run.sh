#!/usr/bin/env bash
# Lifecycle benchmark against the local stack, plus pgbench on the same PostgreSQL for scale.
#   bench/run.sh [chains] [lifecycles-per-chain]     (defaults 8 x 25)
# Starts the stack with deploy/local/run.sh (no demo) unless it is already up; leaves it running.
set -euo pipefail
source "$(dirname "$0")/prepare.sh"
CHAINS=${1:-8}
LIFECYCLES=${2:-25}
CPU_BEFORE=$(mktemp) CPU_AFTER=$(mktemp)
trap 'rm -f "$CPU_BEFORE" "$CPU_AFTER"' EXIT
# The client snapshots every process's CPU when its measured window opens (the first lifecycle call) and closes (the
# last fan-out seen), so the [cpu] line counts what the lifecycles cost, not the client's start-up, the chains'
# registration or the wait for the read models.
java $BENCH_JAVA_OPTS -cp "$BENCH_CP" io.batchyard.bench.LifecycleBenchmark \
  --chains "$CHAINS" --lifecycles "$LIFECYCLES" \
  --registry "http://127.0.0.1:$REGISTRY_PORT" --execution "http://127.0.0.1:$EXECUTION_PORT" \
  --queue "http://127.0.0.1:$QUEUE_PORT" --kafka "127.0.0.1:$KAFKA_PORT" \
  --window-start "bench/process-cpu.sh snapshot $CPU_BEFORE" --window-end "bench/process-cpu.sh snapshot $CPU_AFTER" |
  tee bench/results/lifecycle.txt
# Where the machine's CPU went in the window, per lifecycle and process (the client's from its own CPU line).
CLIENT_CPU=$(sed -n 's/^CPU client_ms=\([0-9]*\) .*/client=\1/p' bench/results/lifecycle.txt)
if [ -s "$CPU_BEFORE" ] && [ -s "$CPU_AFTER" ]; then
  bench/process-cpu.sh report "$CPU_BEFORE" "$CPU_AFTER" $((CHAINS * LIFECYCLES)) lifecycle $CLIENT_CPU |
    tee -a bench/results/lifecycle.txt || echo "[bench] no CPU breakdown (bench/process-cpu.sh failed); the figures above stand"
else
  echo "[bench] no CPU breakdown (a window snapshot by bench/process-cpu.sh failed); the figures above stand"
fi
# Where those fan-outs spent their time, from the services' own databases.
bench/fanout-stages.sh $((CHAINS * LIFECYCLES)) | tee -a bench/results/lifecycle.txt \
  || echo "[bench] no stage breakdown (bench/fanout-stages.sh failed); the figures above stand"

# Clock ticks of the whole machine from /proc/stat, summed over its cores: busy (user, nice, system, irq, softirq) and
# all (those, idle, iowait and steal), so that a window's busy share is its busy delta over its all delta.
cpu_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }
if command -v pgbench >/dev/null; then
  PGBENCH_SECONDS=30
  echo "[bench] pgbench -c 8 -T $PGBENCH_SECONDS on the same PostgreSQL ($PG_HOST:$PG_PORT), scratch database batchyard_pgbench"
  export PGPASSWORD=$PG_PASSWORD
  psql -h "$PG_HOST" -p "$PG_PORT" -U batchyard -d batchyard_registry -qtAc "SELECT 1" >/dev/null
  psql_admin -c "DROP DATABASE IF EXISTS batchyard_pgbench" >/dev/null
  psql_admin -c "CREATE DATABASE batchyard_pgbench OWNER batchyard" >/dev/null
  pgbench -h "$PG_HOST" -p "$PG_PORT" -U batchyard -i -q batchyard_pgbench >/dev/null 2>&1
  read -r BUSY_BEFORE ALL_BEFORE < <(cpu_ticks)
  pgbench -h "$PG_HOST" -p "$PG_PORT" -U batchyard -c 8 -T "$PGBENCH_SECONDS" batchyard_pgbench 2>/dev/null | tee bench/results/pgbench.txt | grep -E "tps|latency average"
  read -r BUSY_AFTER ALL_AFTER < <(cpu_ticks)
  PGBENCH_TPS=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' bench/results/pgbench.txt | head -1)
  PGBENCH_TX=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' bench/results/pgbench.txt)
  # What the ratio asks of the stack in CPU: at ratio 0.40 the stack makes 0.40 x pgbench's transactions/s, a
  # lifecycle being eight of them, so the whole machine (every core, every process: services, Kafka, PostgreSQL, the
  # client) can spend at most cores x 1000 / (0.40 x tps / 8) CPU-ms per lifecycle. pgbench itself does not fill the
  # cores (it also waits for commit flushes); its busy CPU per transaction is printed for scale.
  LIFECYCLE_CPU=$(sed -n 's/^\[cpu\] CPU-ms per lifecycle.* all=\([0-9]*\).*/\1/p' bench/results/lifecycle.txt)
  awk -v busy=$((BUSY_AFTER - BUSY_BEFORE)) -v all=$((ALL_AFTER - ALL_BEFORE)) -v hz="$(getconf CLK_TCK)" \
      -v tx="${PGBENCH_TX:-0}" -v tps="${PGBENCH_TPS:-0}" -v cores="$(nproc)" -v spent="${LIFECYCLE_CPU:-?}" 'BEGIN {
    if (tx > 0 && tps > 0 && all > 0) printf "[cpu] pgbench: %.2f CPU-ms of the whole machine per transaction (%.0f%% of %d cores busy); ratio 0.40 would allow a lifecycle at most %.1f CPU-ms of the whole machine (this run: %s)\n", busy * 1000 / hz / tx, busy * 100 / all, cores, cores * 1000 / (0.40 * tps / 8), spent }'
  # The scratch database is pgbench's alone: nothing of it stays behind (stop.sh --purge knows only the stack's).
  psql_admin -c "DROP DATABASE IF EXISTS batchyard_pgbench" >/dev/null || true
else
  echo "[bench] pgbench not installed (Debian: postgresql-contrib / postgresql-client): no ratio"
fi

# One machine-readable line: the benchmark's figures, pgbench's and their ratio.
METRICS=$(sed -n 's/^METRICS //p' bench/results/lifecycle.txt)
[ -n "$METRICS" ] || { echo "[bench] the benchmark printed no METRICS line" >&2; exit 1; }
TRANSITIONS=$(sed -n 's/.*transitions_per_s=\([0-9.]*\).*/\1/p' <<<"$METRICS")
TPS=${PGBENCH_TPS:-0}
RATIO=$(awk -v t="$TRANSITIONS" -v p="$TPS" 'BEGIN { if (p > 0) printf "%.3f", t / p; else print "n/a" }')
FANOUT=${METRICS#transitions_per_s=* }
RESULT="RESULT transitions_per_s=$TRANSITIONS pgbench_tps=$(printf '%.0f' "$TPS") ratio=$RATIO $FANOUT"
echo "$RESULT" | tee bench/results/result.txt
# Missing or duplicated fan-outs are failures, whatever the speed.
grep -qE 'fanouts=([0-9]+)/\1 duplicates=0$' <<<"$RESULT" || { echo "[bench] fan-outs missing or duplicated" >&2; exit 2; }
