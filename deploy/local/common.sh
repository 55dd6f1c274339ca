# Shared settings of run.sh / stop.sh / demo.sh (sourced, not run).
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WORK=${BATCHYARD_WORK:-$ROOT/deploy/local/.work}
# Where jobs' scripts and files live when run.sh runs as root and jobs run as their own user (batchyard-job): outside
# the checkout, which that user may not be able to reach (a clone in a private directory).
JOB_HOME=${BATCHYARD_JOB_HOME:-/var/tmp/batchyard-jobs-$(printf %s "$ROOT" | cksum | cut -d' ' -f1)}
# Every listener of the local stack (services, Kafka) binds this address: loopback unless told otherwise.
BIND_HOST=${BATCHYARD_BIND_HOST:-127.0.0.1}
# Where local clients (the scripts, the services among themselves) reach those listeners.
case $BIND_HOST in 0.0.0.0|::|'[::]') HOST=127.0.0.1 ;; *) HOST=$BIND_HOST ;; esac
KAFKA_PORT=${BATCHYARD_KAFKA_PORT:-9092}
KAFKA_CONTROLLER_PORT=${BATCHYARD_KAFKA_CONTROLLER_PORT:-9093}
PG_HOST=${BATCHYARD_PG_HOST:-127.0.0.1}
PG_PORT=${BATCHYARD_PG_PORT:-5432}
PG_PASSWORD=${BATCHYARD_PG_PASSWORD:-batchyard}
REGISTRY_PORT=${BATCHYARD_REGISTRY_PORT:-8081}
EXECUTION_PORT=${BATCHYARD_EXECUTION_PORT:-8082}
QUEUE_PORT=${BATCHYARD_QUEUE_PORT:-8083}
LINEAGE_PORT=${BATCHYARD_LINEAGE_PORT:-8084}
# The operations page (dashboard), a reader of the topics.
DASHBOARD_PORT=${BATCHYARD_DASHBOARD_PORT:-8086}
# Each one's management interface: health, metrics and the OpenAPI document, open without a token, on a port of its
# own (never on the ports above).
REGISTRY_MANAGEMENT_PORT=${BATCHYARD_REGISTRY_MANAGEMENT_PORT:-9181}
EXECUTION_MANAGEMENT_PORT=${BATCHYARD_EXECUTION_MANAGEMENT_PORT:-9182}
QUEUE_MANAGEMENT_PORT=${BATCHYARD_QUEUE_MANAGEMENT_PORT:-9183}
LINEAGE_MANAGEMENT_PORT=${BATCHYARD_LINEAGE_MANAGEMENT_PORT:-9184}
DASHBOARD_MANAGEMENT_PORT=${BATCHYARD_DASHBOARD_MANAGEMENT_PORT:-9186}
DASHBOARD_URL=http://$HOST:$DASHBOARD_PORT/
# The OpenID Connect provider (Keycloak) whose tokens the services trust, when run.sh can start one.
KEYCLOAK_PORT=${BATCHYARD_KEYCLOAK_PORT:-8180}
# The schema registry every record goes through (Apicurio Registry; its Confluent-compatible API for Kafka tools).
SCHEMA_REGISTRY_PORT=${BATCHYARD_SCHEMA_REGISTRY_PORT:-8085}
SCHEMA_REGISTRY_URL=http://$HOST:$SCHEMA_REGISTRY_PORT
SCHEMA_REGISTRY_MANAGEMENT_PORT=${BATCHYARD_SCHEMA_REGISTRY_MANAGEMENT_PORT:-9085}
COMPACTION_ROOT=${BATCHYARD_COMPACTION_STORE_ROOT:-$WORK/compaction}
SERVICES=(registry-service queue-service execution-service lineage-service)
# How long the broker keeps lifecycle commands, which carry their producer's bearer token (1 h).
COMMANDS_RETENTION_MS=${BATCHYARD_COMMANDS_RETENTION_MS:-3600000}
# The audience every service requires in a token (api-support's quarkus.oidc.token.audience): token.sh puts it in the
# tokens it signs, and Keycloak's realm (deploy/local/keycloak) in the tokens of every client.
TOKEN_AUDIENCE=${QUARKUS_OIDC_TOKEN_AUDIENCE:-batchyard}
TOPICS=(batchyard.registry.processes batchyard.execution.lifecycle batchyard.execution.commands
        batchyard.execution.rejections batchyard.execution.deployments batchyard.execution.backfills batchyard.execution.deadlines batchyard.queue.batches batchyard.queue.files batchyard.lineage.queries
        batchyard.lineage.parsed batchyard.lineage.openlineage batchyard.queue.objects batchyard.queue.compaction)

say() { printf '[batchyard] %s\n' "$*"; }
die() { printf '[batchyard] ERROR: %s\n' "$*" >&2; exit 1; }

# Any command that fails outside a condition stops the script and says which one (set -E: also inside functions).
set -E
trap 'rc=$?; printf "[batchyard] ERROR: %s:%s: \"%s\" failed (exit %s)\n" "$(basename "$0")" "$LINENO" "$BASH_COMMAND" "$rc" >&2; exit $rc' ERR

# step LOG DESCRIPTION COMMAND...: runs COMMAND with its output in $WORK/logs/LOG.log (appended); when it fails, its
# last lines are printed before stopping, so a failing step never fails silently.
step() {
  local log=$WORK/logs/$1.log what=$2; shift 2
  mkdir -p "$WORK/logs"
  printf '==== %s: %s\n' "$(date -u +%FT%TZ)" "$*" >>"$log"
  "$@" >>"$log" 2>&1 || {
    local rc=$?
    printf '[batchyard] ERROR: %s failed (exit %s): %s\n[batchyard] its last output (%s):\n' "$what" "$rc" "$*" "$log" >&2
    tail -n 60 "$log" >&2
    exit "$rc"
  }
}

# The runtime classpath of deploy/test-stack (EmbeddedPostgresMain, EventTail). The build writes it next to the module's
# classes; when it is missing (BATCHYARD_SKIP_BUILD=1 on a clean tree) that module is built from the reactor here.
# Nothing is ever installed into ~/.m2.
test_stack_classpath() {
  local cp=$ROOT/deploy/test-stack/target/runtime.classpath
  if [ ! -s "$cp" ] || [ ! -d "$ROOT/deploy/test-stack/target/classes" ]; then
    (cd "$ROOT" && step build "building deploy/test-stack" ./mvnw -B package -DskipTests -pl deploy/test-stack -am)
  fi
  printf '%s:%s' "$ROOT/deploy/test-stack/target/classes" "$(cat "$cp")"
}

# Byte size of a log, so that waiting for a line in an appended log looks only at what came after.
log_size() { [ -f "$1" ] && stat -c %s "$1" || echo 0; }
# true when FILE, from byte OFFSET on, contains PATTERN
logged_since() { [ -f "$2" ] && tail -c +"$(($1 + 1))" "$2" | grep -q "$3"; }
# Appends a start marker, so each run of a process is easy to find in its (never truncated) log.
log_start() { mkdir -p "$(dirname "$1")"; printf '\n==== %s: starting %s\n' "$(date -u +%FT%TZ)" "$2" >>"$1"; }

port_of() {
  case $1 in
    registry-service) echo "$REGISTRY_PORT" ;; execution-service) echo "$EXECUTION_PORT" ;;
    queue-service) echo "$QUEUE_PORT" ;; lineage-service) echo "$LINEAGE_PORT" ;; dashboard) echo "$DASHBOARD_PORT" ;;
  esac
}
management_port_of() {
  case $1 in
    registry-service) echo "$REGISTRY_MANAGEMENT_PORT" ;; execution-service) echo "$EXECUTION_MANAGEMENT_PORT" ;;
    queue-service) echo "$QUEUE_MANAGEMENT_PORT" ;; lineage-service) echo "$LINEAGE_MANAGEMENT_PORT" ;;
    dashboard) echo "$DASHBOARD_MANAGEMENT_PORT" ;;
  esac
}
# Where a service's (or the dashboard's) /q/health, /q/metrics and /q/openapi answer.
management_url() { echo "http://$HOST:$(management_port_of "$1")/q"; }

# true when something accepts TCP connections on 127.0.0.1:$1
listening() { (exec 3<>"/dev/tcp/${2:-$HOST}/$1") 2>/dev/null; }

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# The services' databases, and the administrator's psql on the PostgreSQL they live in (a superuser over TCP, else
# the postgres OS user over the socket).
# batchyard_schemas keeps the schema registry's subjects: their ids are in every record on the topics, so they must
# outlive a restart of the registry.
DATABASES=(batchyard_registry batchyard_execution batchyard_queue batchyard_lineage batchyard_schemas)
# The same list as a PostgreSQL array literal, for the scripts that ask pg_stat_* about the stack's databases only
# (WHERE datname = ANY($DATABASES_SQL_ARRAY)).
DATABASES_SQL_ARRAY="'{$(IFS=,; echo "${DATABASES[*]}")}'"
psql_admin() {
  if psql -h "$PG_HOST" -p "$PG_PORT" -U postgres -tAc "SELECT 1" >/dev/null 2>&1; then
    psql -h "$PG_HOST" -p "$PG_PORT" -U postgres -v ON_ERROR_STOP=1 -qtA "$@"
  else
    su postgres -c "psql -p $PG_PORT -v ON_ERROR_STOP=1 -qtA $(printf '%q ' "$@")"
  fi
}

# Refuses to start over a port that something else holds, naming the holder when it can.
require_free() {
  local port=$1 what=$2 var=$3
  if listening "$port"; then
    local holder=""
    command -v ss >/dev/null && holder=$(ss -ltnpH "sport = :$port" 2>/dev/null | sed -n 's/.*users:((\(.*\)).*/\1/p' | head -1)
    die "port $port ($what) is already taken${holder:+ by $holder}; stop it or set $var"
  fi
}
