#!/usr/bin/env bash
# Starts the whole Batchyard system locally: a real Kafka broker (KRaft, jars from Maven Central), PostgreSQL (the one
# on 127.0.0.1:5432, or an embedded one), every service, then the demo pipeline. Idempotent; stop with stop.sh.
set -euo pipefail
source "$(dirname "$0")/common.sh"
mkdir -p "$WORK/logs" "$WORK/pids"
cd "$ROOT"
command -v java >/dev/null || die "a JDK 17+ is required (java not found)"

# ---------- build ----------
if [ "${BATCHYARD_SKIP_BUILD:-0}" != 1 ]; then
  say "building the services from this tree (the first build downloads Maven and dependencies: a few minutes; output in $WORK/logs/build.log)"
  step build "the build (./mvnw package)" ./mvnw -B package -DskipTests
fi

# ---------- Kafka ----------
start_kafka() {
  local dir=$WORK/kafka
  if alive "$WORK/pids/kafka.pid"; then say "Kafka already running (pid $(cat "$WORK/pids/kafka.pid"))"; return; fi
  require_free "$KAFKA_PORT" "Kafka" BATCHYARD_KAFKA_PORT
  require_free "$KAFKA_CONTROLLER_PORT" "Kafka controller" BATCHYARD_KAFKA_CONTROLLER_PORT
  mkdir -p "$dir"
  if [ ! -d "$dir/libs" ]; then
    say "fetching the Kafka 4.2.1 broker jars from Maven Central (once)"
    step kafka-fetch "fetching the Kafka jars" ./mvnw -B -f deploy/local/kafka/pom.xml dependency:copy-dependencies \
      -DoutputDirectory="$dir/libs" -DincludeScope=runtime
  fi
  cat > "$dir/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://$BIND_HOST:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://${BATCHYARD_KAFKA_ADVERTISED_HOST:-$HOST}:$KAFKA_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$dir/data
num.partitions=3
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
PROPS
  if [ ! -f "$dir/data/meta.properties" ]; then
    local cid
    cid=$(java -cp "$dir/libs/*" kafka.tools.StorageTool random-uuid 2>/dev/null)   # stdout only: stderr has a log line
    step kafka-format "formatting the Kafka storage" java -cp "$dir/libs/*" kafka.tools.StorageTool format -t "$cid" \
      -c "$dir/server.properties"
  fi
  say "starting Kafka on $BIND_HOST:$KAFKA_PORT"
  local log=$WORK/logs/kafka.log
  log_start "$log" kafka
  nohup java -Xms128m -Xmx${BATCHYARD_KAFKA_HEAP:-512m} -XX:+UseG1GC -cp "$dir/libs/*" kafka.Kafka "$dir/server.properties" \
    >>"$log" 2>&1 &
  echo $! >"$WORK/pids/kafka.pid"
  for _ in $(seq 1 120); do
    listening "$KAFKA_PORT" && break
    alive "$WORK/pids/kafka.pid" || { tail -30 "$log"; die "Kafka exited"; }
    sleep 0.5
  done
  listening "$KAFKA_PORT" || { tail -30 "$log"; die "Kafka did not start in 60 s"; }
  for t in "${TOPICS[@]}"; do
    step kafka-topics "creating topic $t" java -cp "$dir/libs/*" org.apache.kafka.tools.TopicCommand \
      --bootstrap-server "$HOST:$KAFKA_PORT" --create --if-not-exists --topic "$t" --partitions 3 --replication-factor 1
  done
  say "Kafka ready; topics: ${TOPICS[*]}"
}

# ---------- PostgreSQL ----------
PG_KIND=system
start_postgres() {
  if ! listening "$PG_PORT" "$PG_HOST" && [ "$PG_HOST:$PG_PORT" = "127.0.0.1:5432" ] && command -v pg_ctlcluster >/dev/null; then
    local v; v=$(ls /etc/postgresql 2>/dev/null | sort -n | tail -1)
    if [ -n "$v" ]; then say "starting the system PostgreSQL $v"; pg_ctlcluster --skip-systemctl-redirect "$v" main start || true; sleep 1; fi
  fi
  if listening "$PG_PORT" "$PG_HOST" && ! alive "$WORK/pids/postgres.pid"; then
    command -v psql >/dev/null || die "PostgreSQL answers on $PG_HOST:$PG_PORT but psql is missing to create the databases"
    say "using the PostgreSQL on $PG_HOST:$PG_PORT"
    psql_admin -c "DO \$\$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'batchyard') THEN
        CREATE ROLE batchyard LOGIN PASSWORD '$PG_PASSWORD'; END IF; END \$\$;" >/dev/null
    for db in "${DATABASES[@]}"; do
      [ "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = '$db'")" = 1 ] || psql_admin -c "CREATE DATABASE $db OWNER batchyard" >/dev/null
    done
    return
  fi
  PG_KIND=embedded
  if alive "$WORK/pids/postgres.pid"; then say "embedded PostgreSQL already running"; return; fi
  say "no PostgreSQL on $PG_HOST:$PG_PORT: starting an embedded one (zonky) there"
  [ "$PG_HOST" = 127.0.0.1 ] || die "an embedded PostgreSQL can only run on 127.0.0.1 (BATCHYARD_PG_HOST=$PG_HOST)"
  local cp log=$WORK/logs/postgres.log from
  cp=$(test_stack_classpath)
  from=$(log_size "$log")
  log_start "$log" "embedded PostgreSQL"
  nohup java -Dot.epg.working-dir="$WORK/epg" -cp "$cp" \
    io.batchyard.teststack.EmbeddedPostgresMain "$PG_PORT" "$WORK/pgdata" "$PG_PASSWORD" "${DATABASES[@]}" \
    >>"$log" 2>&1 &
  echo $! >"$WORK/pids/postgres.pid"
  for _ in $(seq 1 120); do
    logged_since "$from" "$log" "ready on" && break
    alive "$WORK/pids/postgres.pid" || { tail -30 "$log"; die "embedded PostgreSQL exited"; }
    sleep 0.5
  done
  logged_since "$from" "$log" "ready on" || { tail -30 "$log"; die "embedded PostgreSQL did not start in 60 s"; }
}

# ---------- services ----------
start_service() {
  local svc=$1 port; port=$(port_of "$svc")
  local jar=$ROOT/$svc/target/quarkus-app/quarkus-run.jar
  [ -f "$jar" ] || { say "WARNING: $jar missing, $svc not started"; return; }
  if alive "$WORK/pids/$svc.pid"; then say "$svc already running"; return; fi
  require_free "$port" "$svc" "BATCHYARD_$(echo "${svc%-service}" | tr a-z A-Z)_PORT"
  log_start "$WORK/logs/$svc.log" "$svc"   # appended: a restarted service keeps its earlier log
  QUARKUS_HTTP_PORT=$port \
  QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://$PG_HOST:$PG_PORT/batchyard_${svc%-service}" \
  QUARKUS_DATASOURCE_REACTIVE_URL="postgresql://$PG_HOST:$PG_PORT/batchyard_${svc%-service}" \
  QUARKUS_DATASOURCE_USERNAME=batchyard QUARKUS_DATASOURCE_PASSWORD=$PG_PASSWORD \
  QUARKUS_HTTP_HOST=$BIND_HOST KAFKA_BOOTSTRAP_SERVERS=$HOST:$KAFKA_PORT BATCHYARD_QUEUE_URL=http://$HOST:$QUEUE_PORT \
  BATCHYARD_COMPACTION_STORE_ROOT=$COMPACTION_ROOT \
  BATCHYARD_RUNNER_SCRIPT_DIR=${BATCHYARD_RUNNER_SCRIPT_DIR:-$ROOT/deploy/local/demo-scripts} \
  BATCHYARD_SECRETS_KEY=$SECRETS_KEY BATCHYARD_GRAPHVIZ_DOT=${BATCHYARD_GRAPHVIZ_DOT:-dot} \
    nohup java -Xmx${BATCHYARD_SERVICE_HEAP:-384m} -Dvertx.disableURIValidation=true -jar "$jar" >>"$WORK/logs/$svc.log" 2>&1 &
  echo $! >"$WORK/pids/$svc.pid"
}
await_service() {
  local svc=$1 port; port=$(port_of "$svc")
  [ -f "$WORK/pids/$svc.pid" ] || return 0
  for _ in $(seq 1 180); do
    curl -fsS -o /dev/null "http://$HOST:$port/q/health/ready" 2>/dev/null && return 0
    alive "$WORK/pids/$svc.pid" || { tail -40 "$WORK/logs/$svc.log"; die "$svc exited"; }
    sleep 0.5
  done
  tail -40 "$WORK/logs/$svc.log"; die "$svc not ready after 90 s"
}

start_kafka
start_postgres
if [ -n "${BATCHYARD_SECRETS_KEY:-}" ]; then SECRETS_KEY=$BATCHYARD_SECRETS_KEY
else
  [ -s "$WORK/secrets.key" ] || { (umask 077; head -c 32 /dev/urandom | base64 >"$WORK/secrets.key"); }
  SECRETS_KEY=$(cat "$WORK/secrets.key")
fi
for svc in "${SERVICES[@]}"; do start_service "$svc"; done
for svc in "${SERVICES[@]}"; do await_service "$svc"; done

say "Batchyard is up:"
printf '  %-18s %-24s %-36s %s\n' service url openapi log
for svc in "${SERVICES[@]}"; do
  p=$(port_of "$svc")
  printf '  %-18s %-24s %-36s %s\n' "$svc" "http://$HOST:$p" "http://$HOST:$p/q/openapi" "$WORK/logs/$svc.log"
done
say "Kafka: $HOST:$KAFKA_PORT    PostgreSQL ($PG_KIND): $PG_HOST:$PG_PORT (role batchyard)"
say "stop everything with deploy/local/stop.sh"

if [ "${BATCHYARD_NO_DEMO:-0}" != 1 ]; then
  "$ROOT/deploy/local/demo.sh"
fi
