#!/usr/bin/env bash
# Stops what run.sh started (services, Keycloak, Kafka, an embedded PostgreSQL; never the system PostgreSQL).
# --purge also deletes local data (Kafka log, the schema registry's database, embedded PostgreSQL data, logs, the generated secrets key, the compaction
# store, Keycloak with its users and generated credentials, the signing key) and, when the stack used an existing
# PostgreSQL, drops the services' databases there: the databases refer to files in the store, so keeping one without the other would leave a stack that points at objects it no longer has.
set -euo pipefail
source "$(dirname "$0")/common.sh"
stop() {
  local name=$1 pidfile=$WORK/pids/$1.pid
  alive "$pidfile" || { rm -f "$pidfile"; return; }
  local pid; pid=$(cat "$pidfile")
  say "stopping $name (pid $pid)"
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  if kill -0 "$pid" 2>/dev/null; then
    say "$name did not stop in 15 s: killing it"
    pkill -9 -P "$pid" 2>/dev/null || true   # Keycloak's launcher script runs the JVM as its child
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
}
for svc in dashboard execution-service queue-service registry-service lineage-service; do stop "$svc"; done
stop schema-registry
stop keycloak
stop kafka
embedded=false
alive "$WORK/pids/postgres.pid" && embedded=true
stop postgres
if [ "${1:-}" = --purge ]; then
  if [ $embedded = false ] && listening "$PG_PORT" "$PG_HOST" && command -v psql >/dev/null; then
    for db in "${DATABASES[@]}"; do
      say "dropping database $db on $PG_HOST:$PG_PORT"
      psql_admin -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null
    done
  fi
  say "deleting $WORK"
  rm -rf "$WORK"
  if [ -d "$JOB_HOME" ]; then say "deleting $JOB_HOME (the jobs' scripts and files)"; rm -rf "$JOB_HOME"; fi
fi
say "stopped"
