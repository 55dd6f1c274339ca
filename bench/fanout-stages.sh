#!/usr/bin/env bash
# Where the fan-out time of the last N upstream runs went, read from the services' own databases (no client clock):
#   bench/fanout-stages.sh [N]     (default 200: the lifecycle benchmark's default run)
#
# For each JobHalted of execution-service's outbox, matched by event id with queue-service's ledger row for it:
#   halt+relay    HaltJob's transaction began -> execution-service's relay had it acknowledged by the broker
#   to-queue      -> queue-service's lifecycle consumer began the transaction that applied it (broker delivery, and
#                    the consumer finishing what it polled before)
#   fan-out+relay -> queue-service's relay had that transaction's BatchEnqueued acknowledged
#   total         HaltJob's transaction began -> BatchEnqueued acknowledged
# and how many lifecycle events that consumer transaction applied; last, the deadlocks PostgreSQL has broken in each
# of the stack's databases since it was created (each one stalled its transactions for deadlock_timeout first).
# Timestamps are PostgreSQL's now() (the start of each transaction) and the relays' marks; the client's HaltJob answer
# comes after the first commit, so these totals run a little longer than the benchmark's own HaltJob -> BatchEnqueued
# figure.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
source "$ROOT/deploy/local/common.sh"
N=${1:-200}
[[ $N =~ ^[0-9]+$ ]] || die "usage: bench/fanout-stages.sh [number of upstream runs], not '$N'"
export PGPASSWORD=$PG_PASSWORD
q() { psql -h "$PG_HOST" -p "$PG_PORT" -U batchyard -d "$1" -qAtF, -c "$2"; }
halted=$(mktemp) applied=$(mktemp)
trap 'rm -f "$halted" "$applied"' EXIT
q batchyard_execution "SELECT event_id, extract(epoch FROM created_at) * 1000, extract(epoch FROM published_at) * 1000
  FROM outbox_event WHERE event_type = 'JobHalted' AND published_at IS NOT NULL ORDER BY position DESC LIMIT $N" >"$halted"
[ -s "$halted" ] || { echo "[stages] execution-service has published no JobHalted yet"; exit 1; }
q batchyard_queue "SELECT p.event_id, extract(epoch FROM p.processed_at) * 1000,
    (SELECT extract(epoch FROM max(o.published_at)) * 1000 FROM outbox_event o
      WHERE o.created_at = p.processed_at AND o.event_type = 'BatchEnqueued'),
    (SELECT count(*) FROM processed_event b WHERE b.consumer = p.consumer AND b.processed_at = p.processed_at)
  FROM processed_event p WHERE p.consumer = 'queue-lifecycle' AND p.event_type = 'JobHalted'
    AND p.event_id IN ($(cut -d, -f1 "$halted" | sed "s/.*/'&'/" | paste -sd, -))" >"$applied"
echo "[stages] the last $(wc -l <"$halted") JobHalted events, in ms (events-per-tx: lifecycle events the consumer applied in that transaction)"
# One line per fan-out and stage, then the percentiles of each stage (plain awk and sort, no gawk extensions).
awk -F, '
  NR == FNR { made[$1] = $2; sent[$1] = $3; next }
  ($1 in made) && $3 != "" {
    printf "1-halt+relay %.0f\n2-to-queue %.0f\n3-fan-out+relay %.0f\n4-total %.0f\n5-events-per-tx %d\n",
      sent[$1] - made[$1], $2 - sent[$1], $3 - $2, $3 - made[$1], $4
  }' "$halted" "$applied" | sort -k1,1 -k2,2n | awk '
  function report() {
    if (n == 0) return
    printf "[stages] %-14s p50 %6d  p90 %6d  p99 %6d  max %6d\n", substr(name, 3), v[int((n + 1) * 0.5)],
      v[rank(0.9)], v[rank(0.99)], v[n]
  }
  function rank(p,  r) { r = int(n * p); if (r < n * p) r++; return r < 1 ? 1 : r }
  $1 != name { report(); name = $1; n = 0; count++ }
  { v[++n] = $2 }
  END {
    report()
    if (count == 0) { print "[stages] no JobHalted both published and applied with a fan-out"; exit 1 }
  }'
q batchyard_queue "SELECT string_agg(datname || '=' || deadlocks, ' ' ORDER BY datname) FROM pg_stat_database
  WHERE datname = ANY($DATABASES_SQL_ARRAY)" | sed 's/^/[stages] deadlocks: /'
