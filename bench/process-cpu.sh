#!/usr/bin/env bash
# CPU time each part of the local stack spent, so that a benchmark can say where its cost went per unit of work:
#   bench/process-cpu.sh snapshot FILE                 records the CPU time of every process of the stack now
#   bench/process-cpu.sh report BEFORE AFTER UNITS LABEL [NAME=MS ...]
#                                                      prints CPU-ms per unit (LABEL names it: "lifecycle") for each
#                                                      part between two snapshots, largest first, with parts measured
#                                                      elsewhere given as total CPU-ms (the benchmark client's own)
#
# The parts are the processes deploy/local/run.sh started (its pid files: the services, the dashboard, Kafka, the
# schema registry, Keycloak) and PostgreSQL: its background processes and the backends connected to the stack's
# databases, found in pg_stat_activity. A backend that connected during the window counts from zero; one that closed
# before the second snapshot is missed, which the pools' long-lived connections make rare. CPU time is utime + stime
# from /proc/<pid>/stat, so it needs Linux and the same machine as the stack.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
source "$ROOT/deploy/local/common.sh"

ticks() { # the process's user + system time in clock ticks; nothing when it is gone
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
  # the command name (field 2) may hold spaces; fields 14 and 15 are counted after its closing parenthesis
  awk '{ print $12 + $13 }' <<<"${stat##*) }"
}

snapshot() {
  local out=$1 f name pid t
  : >"$out"
  for f in "$WORK"/pids/*.pid; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .pid)
    # the embedded PostgreSQL's pid file names its Java launcher; the server's own processes are counted below
    [ "$name" = postgres ] && continue
    pid=$(cat "$f")
    t=$(ticks "$pid")
    if [ -n "$t" ]; then echo "$name $pid $t" >>"$out"; fi
  done
  export PGPASSWORD=$PG_PASSWORD
  psql -h "$PG_HOST" -p "$PG_PORT" -U batchyard -d batchyard_registry -qAtc \
    "SELECT pid FROM pg_stat_activity WHERE backend_type <> 'client backend' OR datname = ANY($DATABASES_SQL_ARRAY)" |
    while read -r pid; do
      t=$(ticks "$pid")
      if [ -n "$t" ]; then echo "postgres $pid $t" >>"$out"; fi
    done
}

report() {
  local before=$1 after=$2 units=$3 label=$4
  shift 4
  awk -v units="$units" -v label="$label" -v hz="$(getconf CLK_TCK)" -v extra="$*" '
    NR == FNR { was[$1 " " $2] = $3; next }
    { spent[$1] += $3 - ($1 " " $2 in was ? was[$1 " " $2] : 0) }
    END {
      n = split(extra, pairs, " ")
      left = 0
      for (i = 1; i <= n; i++) { split(pairs[i], kv, "="); ms[kv[1]] = kv[2] / units; left++ }
      for (p in spent) { ms[p] = spent[p] * 1000 / hz / units; left++ }
      line = ""; total = 0
      # largest first, so the line reads as the answer to "where did it go"
      for (; left > 0; left--) {
        best = ""; for (p in ms) if (best == "" || ms[p] > ms[best]) best = p
        line = line sprintf(" %s=%.0f", best, ms[best]); total += ms[best]; delete ms[best]
      }
      printf "[cpu] CPU-ms per %s (%d):%s all=%.0f\n", label, units, line, total
    }' "$before" "$after"
}

case ${1:-} in
  snapshot) [ $# -eq 2 ] || die "usage: bench/process-cpu.sh snapshot FILE"; snapshot "$2" ;;
  report) [ $# -ge 5 ] || die "usage: bench/process-cpu.sh report BEFORE AFTER UNITS LABEL [NAME=MS ...]"
    shift; report "$@" ;;
  *) die "usage: bench/process-cpu.sh snapshot FILE | report BEFORE AFTER UNITS LABEL [NAME=MS ...]" ;;
esac
