# Shared settings of run.sh / stop.sh / demo.sh (sourced, not run).
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WORK=${BATCHYARD_WORK:-$ROOT/deploy/local/.work}
KAFKA_PORT=${BATCHYARD_KAFKA_PORT:-9092}
KAFKA_CONTROLLER_PORT=${BATCHYARD_KAFKA_CONTROLLER_PORT:-9093}
PG_HOST=${BATCHYARD_PG_HOST:-127.0.0.1}
PG_PORT=${BATCHYARD_PG_PORT:-5432}
PG_PASSWORD=${BATCHYARD_PG_PASSWORD:-batchyard}
REGISTRY_PORT=${BATCHYARD_REGISTRY_PORT:-8081}
EXECUTION_PORT=${BATCHYARD_EXECUTION_PORT:-8082}
QUEUE_PORT=${BATCHYARD_QUEUE_PORT:-8083}
LINEAGE_PORT=${BATCHYARD_LINEAGE_PORT:-8084}
COMPACTION_ROOT=${BATCHYARD_COMPACTION_STORE_ROOT:-$WORK/compaction}
SERVICES=(registry-service queue-service execution-service lineage-service)
TOPICS=(batchyard.registry.processes batchyard.execution.lifecycle batchyard.execution.commands
        batchyard.execution.rejections batchyard.queue.batches batchyard.queue.files batchyard.lineage.queries
        batchyard.lineage.parsed batchyard.queue.objects batchyard.queue.compaction)

say() { printf '[batchyard] %s\n' "$*"; }
die() { printf '[batchyard] ERROR: %s\n' "$*" >&2; exit 1; }

port_of() {
  case $1 in
    registry-service) echo "$REGISTRY_PORT" ;; execution-service) echo "$EXECUTION_PORT" ;;
    queue-service) echo "$QUEUE_PORT" ;; lineage-service) echo "$LINEAGE_PORT" ;;
  esac
}

# true when something accepts TCP connections on 127.0.0.1:$1
listening() { (exec 3<>"/dev/tcp/${2:-127.0.0.1}/$1") 2>/dev/null; }

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# Refuses to start over a port that something else holds, naming the holder when it can.
require_free() {
  local port=$1 what=$2 var=$3
  if listening "$port"; then
    local holder=""
    command -v ss >/dev/null && holder=$(ss -ltnpH "sport = :$port" 2>/dev/null | sed -n 's/.*users:((\(.*\)).*/\1/p' | head -1)
    die "port $port ($what) is already taken${holder:+ by $holder}; stop it or set $var"
  fi
}
