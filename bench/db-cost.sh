#!/usr/bin/env bash
# What a piece of work cost PostgreSQL: its CPU, the statements it ran and the transactions it committed.
#   bench/db-cost.sh snapshot FILE                      records PostgreSQL's counters now
#   bench/db-cost.sh report BEFORE AFTER UNITS LABEL    prints the cost per unit between two snapshots
#
# CPU is measured two ways. pg_ms: every PostgreSQL process's utime + stime from /proc, plus what the postmaster's
# exited children spent (cutime + cstime), so a backend that connected and disconnected inside the window is counted
# through its parent: the server's whole CPU in the window, whoever asked (run it on a quiet machine). backend_ms: only
# the backends connected to the counted databases (pg_stat_activity's datname), each from /proc: what this work cost
# its own sessions, whatever else the server did meanwhile (other databases' tests, background writers). A backend
# that started inside the window counts whole; one that ended inside it is missed, so the window must see the
# sessions live at both ends (the stack's pools do; bench/run.sh snapshots pgbench while it runs).
# Statements are pg_stat_statements' calls and commits pg_stat_database's xact_commit, for the stack's databases
# (common.sh's DATABASES) and any database named on the command line through DB_COST_DATABASES (pgbench's scratch
# database). The snapshot's own queries run in the postgres database, which is never counted. Without
# pg_stat_statements (it must be in shared_preload_libraries) statements are reported as n/a, with how to enable it.
#
# The report prints a readable line and a machine-readable one:
#   [db] per transition (1600): pg_ms=… backend_ms=… statements=… commits=… (batchyard_execution: statements=… …)
#   DB pg_ms=… backend_ms=… statements=… commits=…
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
source "$ROOT/deploy/local/common.sh"

# DB_COST_ONLY_DATABASES counts those databases alone (pgbench's scratch database, without the idle stack's).
if [ -n "${DB_COST_ONLY_DATABASES:-}" ]; then DBS=($DB_COST_ONLY_DATABASES); else DBS=("${DATABASES[@]}" ${DB_COST_DATABASES:-}); fi
DB_LIST="'{$(IFS=,; echo "${DBS[*]}")}'"

snapshot() {
  local out=$1
  : >"$out"
  # the counted databases' backends first, each with its CPU now, so that the window's ends are sharp
  # (one awk over all their /proc stat files: comm is "(postgres)", without spaces, so the fields are fixed)
  local backends
  backends=$(psql_admin -F' ' -c "SELECT pid, datname FROM pg_stat_activity
    WHERE backend_type = 'client backend' AND datname = ANY($DB_LIST)")
  if [ -n "$backends" ]; then
    awk 'NR == FNR { db[$1] = $2; next } { print "backend", $1, $14 + $15, db[$1] }' - \
      $(awk '{ print "/proc/" $1 "/stat" }' <<<"$backends") <<<"$backends" 2>/dev/null >>"$out" || true
  fi
  # every postgres process: its own CPU; the postmaster (whose parent is not a postgres process): also its children's.
  # One ps for all: the parents' names come from the same listing.
  local procs
  procs=$(ps -e -o pid=,ppid=,comm= | awk '{ comm[$1] = $3; parent[$1] = $2 }
    END { for (p in comm) if (comm[p] == "postgres") print p, (comm[parent[p]] == "postgres" ? 0 : 1) }')
  awk 'NR == FNR { postmaster[$1] = $2; next }
    { print "proc", $1, $14 + $15; if (postmaster[$1] == 1) print "children", $1, $16 + $17 }' - \
    $(awk '{ print "/proc/" $1 "/stat" }' <<<"$procs") <<<"$procs" 2>/dev/null >>"$out" || true
  psql_admin -F' ' -c "SELECT 'commits', datname, xact_commit FROM pg_stat_database WHERE datname = ANY($DB_LIST)" \
    >>"$out"
  if psql_admin -c "SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements'" | grep -q 1 \
      || psql_admin -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null 2>&1; then
    psql_admin -F' ' -c "SELECT 'calls', d.datname, coalesce(sum(s.calls), 0)
      FROM pg_database d LEFT JOIN pg_stat_statements s ON s.dbid = d.oid
      WHERE d.datname = ANY($DB_LIST) GROUP BY d.datname" >>"$out" 2>/dev/null || true
  fi
}

report() {
  local before=$1 after=$2 units=$3 label=$4
  awk -v units="$units" -v label="$label" -v hz="$(getconf CLK_TCK)" '
    NR == FNR { was[$1 " " $2] = $3; next }
    $1 == "proc" || $1 == "children" { cpu += $3 - (($1 " " $2) in was ? was[$1 " " $2] : 0) }
    $1 == "backend" { backend += $3 - (($1 " " $2) in was ? was[$1 " " $2] : 0) }
    $1 == "commits" { commits[$2] = $3 - was["commits " $2]; c += commits[$2] }
    $1 == "calls" { calls[$2] = $3 - was["calls " $2]; s += calls[$2]; have_calls = 1 }
    END {
      detail = ""
      for (db in commits) detail = detail sprintf("%s%s: statements=%s commits=%.1f", detail == "" ? "" : ", ", db,
        have_calls ? sprintf("%.1f", calls[db] / units) : "n/a", commits[db] / units)
      st = have_calls ? sprintf("%.1f", s / units) : "n/a"
      printf "[db] per %s (%d): pg_ms=%.2f backend_ms=%.2f statements=%s commits=%.2f (%s)\n", label, units,
        cpu * 1000 / hz / units, backend * 1000 / hz / units, st, c / units, detail
      if (!have_calls) print "[db] no statement counts: pg_stat_statements is not loaded (ALTER SYSTEM SET shared_preload_libraries = '"'"'pg_stat_statements'"'"', then restart PostgreSQL)"
      printf "DB pg_ms=%.3f backend_ms=%.3f statements=%s commits=%.2f\n", cpu * 1000 / hz / units,
        backend * 1000 / hz / units, st, c / units
    }' "$before" "$after"
}

case ${1:-} in
  snapshot) [ $# -eq 2 ] || die "usage: bench/db-cost.sh snapshot FILE"; snapshot "$2" ;;
  report) [ $# -eq 5 ] || die "usage: bench/db-cost.sh report BEFORE AFTER UNITS LABEL"; shift; report "$@" ;;
  *) die "usage: bench/db-cost.sh snapshot FILE | report BEFORE AFTER UNITS LABEL" ;;
esac
