#!/usr/bin/env bash
# Lifecycle benchmark against the local stack, plus pgbench on the same PostgreSQL for scale.
#   bench/run.sh [chains] [lifecycles-per-chain]     (defaults 8 x 25)
# Starts the stack with deploy/local/run.sh (no demo) unless it is already up; leaves it running.
set -euo pipefail
source "$(dirname "$0")/prepare.sh"
CHAINS=${1:-8}
LIFECYCLES=${2:-25}
CPU_BEFORE=$(mktemp) CPU_AFTER=$(mktemp) DB_BEFORE=$(mktemp) DB_AFTER=$(mktemp) PGB_BEFORE=$(mktemp) PGB_AFTER=$(mktemp)
PGB_INNER_BEFORE=$(mktemp) PGB_INNER_AFTER=$(mktemp)
trap 'rm -f "$CPU_BEFORE" "$CPU_AFTER" "$DB_BEFORE" "$DB_AFTER" "$PGB_BEFORE" "$PGB_AFTER" "$PGB_INNER_BEFORE" "$PGB_INNER_AFTER"' EXIT
rm -f bench/results/pgbench-db.txt bench/results/pgbench-db-inner.txt
# Each lifecycle is eight committed transitions: InitJob, InitStep and HaltStep of three steps, HaltJob.
TRANSITIONS_RUN=$((CHAINS * LIFECYCLES * 8))
# The client snapshots every process's CPU when its measured window opens (the first lifecycle call) and closes (the
# last fan-out seen), so the [cpu] line counts what the lifecycles cost, not the client's start-up, the chains'
# registration or the wait for the read models.
java $BENCH_JAVA_OPTS -cp "$BENCH_CP" io.batchyard.bench.LifecycleBenchmark \
  --chains "$CHAINS" --lifecycles "$LIFECYCLES" \
  --registry "http://$HOST:$REGISTRY_PORT" --execution "http://$HOST:$EXECUTION_PORT" \
  --queue "http://$HOST:$QUEUE_PORT" --kafka "$HOST:$KAFKA_PORT" --schema-registry "$SCHEMA_REGISTRY_URL" \
  --window-start "bench/process-cpu.sh snapshot $CPU_BEFORE; bench/db-cost.sh snapshot $DB_BEFORE" \
  --window-end "bench/process-cpu.sh snapshot $CPU_AFTER; bench/db-cost.sh snapshot $DB_AFTER" |
  tee bench/results/lifecycle.txt
# Where the machine's CPU went in the window, per lifecycle and process (the client's from its own CPU line).
CLIENT_CPU=$(sed -n 's/^CPU client_ms=\([0-9]*\) .*/client=\1/p' bench/results/lifecycle.txt)
if [ -s "$CPU_BEFORE" ] && [ -s "$CPU_AFTER" ]; then
  bench/process-cpu.sh report "$CPU_BEFORE" "$CPU_AFTER" $((CHAINS * LIFECYCLES)) lifecycle $CLIENT_CPU |
    tee -a bench/results/lifecycle.txt || echo "[bench] no CPU breakdown (bench/process-cpu.sh failed); the figures above stand"
else
  echo "[bench] no CPU breakdown (a window snapshot by bench/process-cpu.sh failed); the figures above stand"
fi
# What the database did for them: PostgreSQL's CPU, statements and commits per transition.
if [ -s "$DB_BEFORE" ] && [ -s "$DB_AFTER" ]; then
  bench/db-cost.sh report "$DB_BEFORE" "$DB_AFTER" "$TRANSITIONS_RUN" transition | tee -a bench/results/lifecycle.txt
else
  echo "[bench] no database cost (bench/db-cost.sh snapshot failed)"
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
  DB_COST_ONLY_DATABASES=batchyard_pgbench bench/db-cost.sh snapshot "$PGB_BEFORE"
  pgbench -h "$PG_HOST" -p "$PG_PORT" -U batchyard -c 8 -T "$PGBENCH_SECONDS" batchyard_pgbench >bench/results/pgbench.txt 2>/dev/null &
  PGBENCH_PID=$!
  # pgbench's sessions live from its start to its end, so their own CPU is read inside the run, 3 s after it starts
  # and 5 s before it ends, and divided by the transactions committed in between (backend_ms, as a transition's).
  sleep 3
  DB_COST_ONLY_DATABASES=batchyard_pgbench bench/db-cost.sh snapshot "$PGB_INNER_BEFORE"
  sleep $((PGBENCH_SECONDS - 8))
  DB_COST_ONLY_DATABASES=batchyard_pgbench bench/db-cost.sh snapshot "$PGB_INNER_AFTER"
  wait "$PGBENCH_PID" || true
  grep -E "tps|latency average" bench/results/pgbench.txt
  DB_COST_ONLY_DATABASES=batchyard_pgbench bench/db-cost.sh snapshot "$PGB_AFTER"
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
  # PostgreSQL's own CPU per pgbench transaction, measured like a transition's: the yardstick of db_ratio. The whole
  # server's over the whole run (pg_ms), and its sessions' inside it (backend_ms, per transaction committed there).
  DB_COST_ONLY_DATABASES=batchyard_pgbench bench/db-cost.sh report "$PGB_BEFORE" "$PGB_AFTER" "${PGBENCH_TX:-1}" \
    "pgbench transaction" | tee bench/results/pgbench-db.txt
  INNER_TX=$(awk '$1 == "commits" { if (FNR == NR) was = $3; else now = $3 } END { print now - was }' \
    "$PGB_INNER_BEFORE" "$PGB_INNER_AFTER")
  DB_COST_ONLY_DATABASES=batchyard_pgbench bench/db-cost.sh report "$PGB_INNER_BEFORE" "$PGB_INNER_AFTER" \
    "${INNER_TX:-1}" "pgbench transaction, sessions inside the run" | tee bench/results/pgbench-db-inner.txt
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
# The database's share: PostgreSQL's CPU per transition against its CPU per pgbench transaction, in the same run.
PG_MS=$(sed -n 's/^DB pg_ms=\([0-9.]*\).*/\1/p' bench/results/lifecycle.txt)
STATEMENTS=$(sed -n 's/^DB .* statements=\([0-9.n/a]*\).*/\1/p' bench/results/lifecycle.txt)
COMMITS=$(sed -n 's/^DB .* commits=\([0-9.]*\).*/\1/p' bench/results/lifecycle.txt)
PGBENCH_PG_MS=$(sed -n 's/^DB pg_ms=\([0-9.]*\).*/\1/p' bench/results/pgbench-db.txt 2>/dev/null || true)
BACKEND_MS=$(sed -n 's/^DB .* backend_ms=\([0-9.]*\).*/\1/p' bench/results/lifecycle.txt)
PGBENCH_BACKEND_MS=$(sed -n 's/^DB .* backend_ms=\([0-9.]*\).*/\1/p' bench/results/pgbench-db-inner.txt 2>/dev/null || true)
DB_RATIO=$(awk -v a="${PG_MS:-0}" -v b="${PGBENCH_PG_MS:-0}" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else print "n/a" }')
# The same ratio from the sessions' own CPU: what other work on the server (other databases, its background
# processes) did in the window does not enter it, so it holds on a machine that is not quiet.
DB_RATIO_SESSIONS=$(awk -v a="${BACKEND_MS:-0}" -v b="${PGBENCH_BACKEND_MS:-0}" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else print "n/a" }')
RESULT="RESULT transitions_per_s=$TRANSITIONS pgbench_tps=$(printf '%.0f' "$TPS") ratio=$RATIO $FANOUT"
RESULT="$RESULT pg_ms_per_transition=${PG_MS:-n/a} pgbench_pg_ms_per_tx=${PGBENCH_PG_MS:-n/a} db_ratio=$DB_RATIO"
RESULT="$RESULT statements_per_transition=${STATEMENTS:-n/a} commits_per_transition=${COMMITS:-n/a}"
RESULT="$RESULT backend_ms_per_transition=${BACKEND_MS:-n/a} pgbench_backend_ms_per_tx=${PGBENCH_BACKEND_MS:-n/a} db_ratio_sessions=$DB_RATIO_SESSIONS"
echo "$RESULT" | tee bench/results/result.txt
# Missing or duplicated fan-outs are failures, whatever the speed.
grep -qE 'fanouts=([0-9]+)/\1 duplicates=0( |$)' <<<"$RESULT" || { echo "[bench] fan-outs missing or duplicated" >&2; exit 2; }
