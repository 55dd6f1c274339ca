#!/usr/bin/env bash
# Starts the whole Batchyard system locally: a real Kafka broker (KRaft, jars from Maven Central), PostgreSQL (the one
# on 127.0.0.1:5432, or an embedded one), the token issuer the services trust (Keycloak from Maven Central on a JDK
# 21+, else a local signing key), the schema registry (Apicurio, on a JDK 21+), every service, then the demo pipeline.
# Idempotent; stop with stop.sh.
set -euo pipefail
source "$(dirname "$0")/common.sh"
mkdir -p "$WORK/logs" "$WORK/pids"
cd "$ROOT"
command -v java >/dev/null || die "a JDK 17+ is required (java not found)"

# ---------- build ----------
# A running service keeps running (see start_service), so a build now would only rewrite the jars under its JVM,
# which loads classes from them lazily.
running_services=()
for svc in "${SERVICES[@]}" dashboard; do alive "$WORK/pids/$svc.pid" && running_services+=("$svc"); done
if [ "${BATCHYARD_SKIP_BUILD:-0}" = 1 ]; then
  :
elif [ ${#running_services[@]} -gt 0 ]; then
  say "not building: ${running_services[*]} already running from an earlier build (to run this tree: stop.sh, then run.sh)"
else
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
  # Commands carry their producer's bearer token in a header: the broker keeps them for an hour only. Set on every
  # start, so that a topic an earlier run created gets it too. (Kafka's config tool is a Java class in
  # org.apache.kafka.tools in newer releases, the Scala kafka.admin.ConfigCommand before.)
  local configs=org.apache.kafka.tools.ConfigCommand
  java -cp "$dir/libs/*" "$configs" --help >/dev/null 2>&1 || configs=kafka.admin.ConfigCommand
  step kafka-topics "setting the retention of batchyard.execution.commands" java -cp "$dir/libs/*" "$configs" \
    --bootstrap-server "$HOST:$KAFKA_PORT" --alter --entity-type topics --entity-name batchyard.execution.commands \
    --add-config "retention.ms=$COMMANDS_RETENTION_MS"
  say "Kafka ready; topics: ${TOPICS[*]} (commands kept $((COMMANDS_RETENTION_MS / 60000)) min)"
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

# ---------- identity: who the services trust ----------
# Keycloak (an OpenID Connect provider) when a JDK that can run it is here, otherwise a local signing key. Either way
# deploy/local/token.sh prints tokens for any user and roles, and $WORK/identity.env tells it which mode is on.
KEYCLOAK_VERSION=$(sed -n 's:.*<keycloak.version>\(.*\)</keycloak.version>.*:\1:p' deploy/local/keycloak/pom.xml)
KEYCLOAK_URL=http://$HOST:$KEYCLOAK_PORT
KEYCLOAK_REALM_URL=$KEYCLOAK_URL/realms/batchyard
SIGNING_ISSUER=https://batchyard.local/signing-key

java_release() {  # java_release JAVA_HOME -> the feature release (17, 21, 25...), nothing when it is no JDK
  [ -x "$1/bin/java" ] || return 0
  "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9.]*\).*/\1/p'
}
# Sets KEYCLOAK_JAVA_HOME to the first JDK 21+ of BATCHYARD_KEYCLOAK_JAVA_HOME, JAVA_HOME, /usr/lib/jvm/*; else
# leaves it empty and says in KEYCLOAK_JAVA_SEEN what was looked at.
find_keycloak_java() {
  local candidates=() home release
  [ -n "${BATCHYARD_KEYCLOAK_JAVA_HOME:-}" ] && candidates+=("$BATCHYARD_KEYCLOAK_JAVA_HOME")
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  for home in /usr/lib/jvm/*; do [ -L "$home" ] || candidates+=("$home"); done
  KEYCLOAK_JAVA_HOME="" KEYCLOAK_JAVA_SEEN=""
  for home in "${candidates[@]}"; do
    release=$(java_release "$home")
    KEYCLOAK_JAVA_SEEN+="${KEYCLOAK_JAVA_SEEN:+, }$home (${release:-no java})"
    if [ -n "$release" ] && [ "${release%%.*}" -ge 21 ] 2>/dev/null; then KEYCLOAK_JAVA_HOME=$home; return; fi
  done
}

choose_identity() {
  local asked=${BATCHYARD_IDENTITY:-auto} running=""
  # A running stack keeps the mode its services were started with.
  if [ -f "$WORK/identity.env" ]; then
    for svc in "${SERVICES[@]}"; do alive "$WORK/pids/$svc.pid" && running=$(sed -n 's/^IDENTITY_MODE=//p' "$WORK/identity.env"); done
  fi
  if [ -n "$running" ]; then
    IDENTITY_MODE=$running; IDENTITY_WHY="the running services were started in this mode"
    [ "$running" = keycloak ] && find_keycloak_java
    return 0
  fi
  case $asked in
    key) IDENTITY_MODE=key IDENTITY_WHY="BATCHYARD_IDENTITY=key"; return ;;
    auto|keycloak) ;;
    *) die "BATCHYARD_IDENTITY must be keycloak, key or auto, got '$asked'" ;;
  esac
  find_keycloak_java
  if [ -n "$KEYCLOAK_JAVA_HOME" ]; then
    IDENTITY_MODE=keycloak IDENTITY_WHY="Keycloak $KEYCLOAK_VERSION runs on the JDK $(java_release "$KEYCLOAK_JAVA_HOME") in $KEYCLOAK_JAVA_HOME"
  else
    [ "$asked" = keycloak ] && die "BATCHYARD_IDENTITY=keycloak, but Keycloak $KEYCLOAK_VERSION needs a JDK 21+ and none was found: $KEYCLOAK_JAVA_SEEN (set BATCHYARD_KEYCLOAK_JAVA_HOME)"
    IDENTITY_MODE=key IDENTITY_WHY="Keycloak $KEYCLOAK_VERSION needs a JDK 21+ and none was found ($KEYCLOAK_JAVA_SEEN; set BATCHYARD_KEYCLOAK_JAVA_HOME to use one)"
  fi
}

start_keycloak() {
  local dir=$WORK/keycloak dist=$WORK/keycloak/keycloak-$KEYCLOAK_VERSION log=$WORK/logs/keycloak.log from started
  mkdir -p "$dir"
  # Generated once and kept: the bootstrap administrator only exists from the first start of Keycloak's database.
  (umask 077
   [ -s "$dir/admin.password" ] || openssl rand -hex 16 >"$dir/admin.password"
   [ -s "$dir/execution.secret" ] || openssl rand -hex 24 >"$dir/execution.secret"
   [ -s "$dir/dashboard.secret" ] || openssl rand -hex 24 >"$dir/dashboard.secret")
  if alive "$WORK/pids/keycloak.pid"; then say "Keycloak already running (pid $(cat "$WORK/pids/keycloak.pid"))"; return; fi
  require_free "$KEYCLOAK_PORT" "Keycloak" BATCHYARD_KEYCLOAK_PORT
  if [ ! -x "$dist/bin/kc.sh" ]; then
    say "fetching Keycloak $KEYCLOAK_VERSION (org.keycloak:keycloak-quarkus-dist) from Maven Central (once, about 200 MB)"
    step keycloak-fetch "fetching Keycloak" ./mvnw -B -f deploy/local/keycloak/pom.xml dependency:unpack@keycloak \
      -Dkeycloak.dir="$dir"
  fi
  # Imported at the first start only (a realm that exists is left as it is); the client secret is an environment
  # placeholder in the file, so the generated one is never written next to it.
  mkdir -p "$dist/data/import"
  cp deploy/local/keycloak/batchyard-realm.json "$dist/data/import/batchyard-realm.json"
  say "starting Keycloak $KEYCLOAK_VERSION (dev mode) on $BIND_HOST:$KEYCLOAK_PORT with the JDK in $KEYCLOAK_JAVA_HOME"
  from=$(log_size "$log")
  log_start "$log" keycloak
  started=$(date +%s)
  JAVA_HOME=$KEYCLOAK_JAVA_HOME JAVA_OPTS_KC_HEAP="-Xms64m -Xmx${BATCHYARD_KEYCLOAK_HEAP:-512m} -XX:ActiveProcessorCount=2" \
  KC_BOOTSTRAP_ADMIN_USERNAME=admin KC_BOOTSTRAP_ADMIN_PASSWORD=$(cat "$dir/admin.password") \
  BATCHYARD_EXECUTION_SECRET=$(cat "$dir/execution.secret") BATCHYARD_DASHBOARD_SECRET=$(cat "$dir/dashboard.secret") \
  BATCHYARD_DASHBOARD_URL=${DASHBOARD_URL%/} \
    nohup "$dist/bin/kc.sh" start-dev --http-host="$BIND_HOST" --http-port="$KEYCLOAK_PORT" --hostname="$KEYCLOAK_URL" \
      --import-realm >>"$log" 2>&1 &
  echo $! >"$WORK/pids/keycloak.pid"
  # The first start builds Keycloak for this configuration and creates its database: a minute or two on 2 cores.
  local waited=0
  until curl -fsS -o /dev/null "$KEYCLOAK_REALM_URL/.well-known/openid-configuration" 2>/dev/null; do
    alive "$WORK/pids/keycloak.pid" || { tail -c +"$((from + 1))" "$log" | tail -40; die "Keycloak exited"; }
    [ $waited -ge "${BATCHYARD_KEYCLOAK_WAIT:-300}" ] && { tail -40 "$log"; die "Keycloak not ready after $waited s"; }
    [ $waited -gt 0 ] && [ $((waited % 15)) = 0 ] && say "  waiting for Keycloak: ${waited} s ($(tail -1 "$log" | cut -c1-110))"
    sleep 1; waited=$((waited + 1))
  done
  say "Keycloak ready in $(( $(date +%s) - started )) s: realm batchyard at $KEYCLOAK_REALM_URL"
}

ensure_signing_key() {
  local dir=$WORK/signing-key
  [ -s "$dir/private.pem" ] && return
  mkdir -p "$dir"
  (umask 077; openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$dir/private.pem" 2>/dev/null)
  say "generated the stack's signing key: $dir/private.pem"
}

# IDENTITY_ENV: what every service gets to verify tokens; SERVICE_IDENTITY_ENV: execution-service's own identity
# towards queue-service's internal endpoint.
configure_identity() {
  DASHBOARD_SIGN_IN_ENV=()
  choose_identity
  say "identity: $IDENTITY_MODE mode: $IDENTITY_WHY"
  if [ "$IDENTITY_MODE" = keycloak ]; then
    start_keycloak
    IDENTITY_ENV=(QUARKUS_OIDC_AUTH_SERVER_URL="$KEYCLOAK_REALM_URL")
    # the dashboard also signs people in through Keycloak (authorization code flow, client batchyard-dashboard)
    DASHBOARD_SIGN_IN_ENV=(BATCHYARD_DASHBOARD_SIGN_IN=true QUARKUS_OIDC_APPLICATION_TYPE=hybrid
      QUARKUS_OIDC_CLIENT_ID=batchyard-dashboard QUARKUS_OIDC_CREDENTIALS_SECRET="$(cat "$WORK/keycloak/dashboard.secret")")
    SERVICE_IDENTITY_ENV=(QUARKUS_OIDC_CLIENT_AUTH_SERVER_URL="$KEYCLOAK_REALM_URL"
      QUARKUS_OIDC_CLIENT_CLIENT_ID=batchyard-execution
      QUARKUS_OIDC_CLIENT_CREDENTIALS_SECRET="$(cat "$WORK/keycloak/execution.secret")")
  else
    ensure_signing_key
    IDENTITY_ENV=(QUARKUS_OIDC_PUBLIC_KEY="$(openssl pkey -in "$WORK/signing-key/private.pem" -pubout -outform DER | base64 -w0)"
      QUARKUS_OIDC_TOKEN_ISSUER="$SIGNING_ISSUER")
  fi
  printf 'IDENTITY_MODE=%s\nKEYCLOAK_URL=%s\nTOKEN_ISSUER=%s\n' "$IDENTITY_MODE" "$KEYCLOAK_URL" "$SIGNING_ISSUER" \
    >"$WORK/identity.env"
  if [ "$IDENTITY_MODE" = key ]; then
    # No provider to renew it: a token for a year, minted at each start.
    SERVICE_IDENTITY_ENV=(BATCHYARD_SERVICE_TOKEN="$(BATCHYARD_TOKEN_HOURS=8760 "$ROOT/deploy/local/token.sh" execution-service service)")
  fi
}

# ---------- schema registry ----------
# Apicurio Registry, from the distribution the build unpacked (deploy/test-stack/target, Maven Central's
# io.apicurio:apicurio-registry-app:<version>:tar.gz:all), on a JDK 21+, its subjects kept in PostgreSQL.
start_schema_registry() {
  local dist=$ROOT/deploy/test-stack/target/apicurio-registry log=$WORK/logs/schema-registry.log
  if alive "$WORK/pids/schema-registry.pid"; then say "schema registry already running (pid $(cat "$WORK/pids/schema-registry.pid"))"; return; fi
  [ -f "$dist/quarkus-run.jar" ] || die "the schema registry's distribution is missing from $dist: build first (unset BATCHYARD_SKIP_BUILD)"
  [ -n "${KEYCLOAK_JAVA_HOME:-}" ] || find_keycloak_java
  [ -n "$KEYCLOAK_JAVA_HOME" ] || die "the schema registry (Apicurio Registry 3) needs a JDK 21+ and none was found: $KEYCLOAK_JAVA_SEEN (set BATCHYARD_KEYCLOAK_JAVA_HOME)"
  require_free "$SCHEMA_REGISTRY_PORT" "the schema registry" BATCHYARD_SCHEMA_REGISTRY_PORT
  require_free "$SCHEMA_REGISTRY_MANAGEMENT_PORT" "the schema registry's health and metrics" BATCHYARD_SCHEMA_REGISTRY_MANAGEMENT_PORT
  say "starting the schema registry (Apicurio Registry) on $BIND_HOST:$SCHEMA_REGISTRY_PORT with the JDK in $KEYCLOAK_JAVA_HOME"
  log_start "$log" schema-registry
  QUARKUS_HTTP_HOST=$BIND_HOST QUARKUS_HTTP_PORT=$SCHEMA_REGISTRY_PORT \
  QUARKUS_MANAGEMENT_HOST=$BIND_HOST QUARKUS_MANAGEMENT_PORT=$SCHEMA_REGISTRY_MANAGEMENT_PORT \
  APICURIO_STORAGE_KIND=sql APICURIO_STORAGE_SQL_KIND=postgresql \
  APICURIO_DATASOURCE_URL="jdbc:postgresql://$PG_HOST:$PG_PORT/batchyard_schemas" \
  APICURIO_DATASOURCE_USERNAME=batchyard APICURIO_DATASOURCE_PASSWORD=$PG_PASSWORD \
  APICURIO_DATASOURCE_JDBC_INITIAL_SIZE=2 APICURIO_DATASOURCE_JDBC_MIN_SIZE=2 APICURIO_DATASOURCE_JDBC_MAX_SIZE=10 \
    nohup "$KEYCLOAK_JAVA_HOME/bin/java" -Xms64m -Xmx${BATCHYARD_SCHEMA_REGISTRY_HEAP:-384m} -XX:ActiveProcessorCount=2 \
      -jar "$dist/quarkus-run.jar" >>"$log" 2>&1 &
  echo $! >"$WORK/pids/schema-registry.pid"
  for _ in $(seq 1 240); do
    curl -fsS -o /dev/null "$SCHEMA_REGISTRY_URL/apis/registry/v3/system/info" 2>/dev/null && break
    alive "$WORK/pids/schema-registry.pid" || { tail -40 "$log"; die "the schema registry exited"; }
    sleep 0.5
  done
  curl -fsS -o /dev/null "$SCHEMA_REGISTRY_URL/apis/registry/v3/system/info" || { tail -40 "$log"; die "the schema registry did not start in 120 s"; }
  # Every subject is held to FULL_TRANSITIVE: each version reads, and is read by, every other one. Set through the
  # Confluent-compatible API, which every registry (Confluent, Apicurio, Karapace, Redpanda) answers.
  step schema-registry-rule "setting the registry's compatibility level" curl -fsS -X PUT \
    -H 'Content-Type: application/vnd.schemaregistry.v1+json' -d '{"compatibility":"FULL_TRANSITIVE"}' \
    "$SCHEMA_REGISTRY_URL/apis/ccompat/v7/config"
}

# ---------- services ----------
# JVM settings of every service and the dashboard (BATCHYARD_SERVICE_JAVA_OPTS replaces them). The whole stack shares
# a small machine: on 2 cores the C2 compiler threads were more than half of each service's CPU through the first few
# hundred lifecycles, so the services compile with C1 only (it compiles in a fraction of the time; the code is
# somewhat slower at peak) and collect with the serial collector (no parallel GC threads competing for the cores).
SERVICE_JAVA_OPTS=${BATCHYARD_SERVICE_JAVA_OPTS-"-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"}
# A job is somebody else's code. As root, execution-service runs every job command as the unprivileged user
# batchyard-job (created here when missing), which cannot read the services' environment or files; its scripts are a
# copy of the demo scripts in $JOB_HOME, a directory that user can reach, and it writes only under $JOB_HOME/.work and
# $JOB_HOME/work. Not root, the services cannot switch user: jobs run as the services' own user, and run.sh accepts
# that risk for this local stack (BATCHYARD_RUNNER_SHARED_USER_ACCEPTED=true), saying so. A script directory of your
# own (BATCHYARD_RUNNER_SCRIPT_DIR) is used as it is: the job user must be able to read it.
JOB_ENV=()
prepare_jobs() {
  local user=${BATCHYARD_RUNNER_JOB_USER:-batchyard-job}
  if [ "$(id -u)" != 0 ]; then
    say "jobs run as $(id -un), the services' own user: only root can give them a user of their own" \
      "(BATCHYARD_RUNNER_SHARED_USER_ACCEPTED=true for this local stack)"
    JOB_ENV=(BATCHYARD_RUNNER_SHARED_USER_ACCEPTED=true)
    return
  fi
  if ! getent passwd "$user" >/dev/null; then
    say "creating the system user $user, as whom jobs run"
    useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$user"
  fi
  JOB_ENV=(BATCHYARD_RUNNER_JOB_USER="$user")
  [ -n "${BATCHYARD_RUNNER_SCRIPT_DIR:-}" ] && return
  install -d -m 755 "$JOB_HOME" "$JOB_HOME/scripts"
  cp -R "$ROOT/deploy/local/demo-scripts/." "$JOB_HOME/scripts/"
  chmod -R u=rwX,go=rX "$JOB_HOME/scripts"
  install -d -m 755 -o "$user" "$JOB_HOME/work" "$JOB_HOME/.work"
  JOB_ENV+=(BATCHYARD_RUNNER_SCRIPT_DIR="$JOB_HOME/scripts" BATCHYARD_RUNNER_WORK_DIR="$JOB_HOME/work")
  say "jobs run as user $user, from $JOB_HOME/scripts"
}
start_service() {
  local svc=$1 port; port=$(port_of "$svc")
  local jar=$ROOT/$svc/target/quarkus-app/quarkus-run.jar
  [ -f "$jar" ] || { say "WARNING: $jar missing, $svc not started"; return; }
  if alive "$WORK/pids/$svc.pid"; then say "$svc already running"; return; fi
  require_free "$port" "$svc" "BATCHYARD_$(echo "${svc%-service}" | tr a-z A-Z)_PORT"
  require_free "$(management_port_of "$svc")" "$svc's health, metrics and OpenAPI" \
    "BATCHYARD_$(echo "${svc%-service}" | tr a-z A-Z)_MANAGEMENT_PORT"
  log_start "$WORK/logs/$svc.log" "$svc"   # appended: a restarted service keeps its earlier log
  local identity=("${IDENTITY_ENV[@]}")
  [ "$svc" = execution-service ] && identity+=("${SERVICE_IDENTITY_ENV[@]}" "${JOB_ENV[@]}")
  QUARKUS_HTTP_PORT=$port \
  QUARKUS_MANAGEMENT_HOST=$BIND_HOST QUARKUS_MANAGEMENT_PORT=$(management_port_of "$svc") \
  QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://$PG_HOST:$PG_PORT/batchyard_${svc%-service}" \
  QUARKUS_DATASOURCE_REACTIVE_URL="postgresql://$PG_HOST:$PG_PORT/batchyard_${svc%-service}" \
  QUARKUS_DATASOURCE_USERNAME=batchyard QUARKUS_DATASOURCE_PASSWORD=$PG_PASSWORD \
  QUARKUS_HTTP_HOST=$BIND_HOST KAFKA_BOOTSTRAP_SERVERS=$HOST:$KAFKA_PORT BATCHYARD_QUEUE_URL=http://$HOST:$QUEUE_PORT \
  BATCHYARD_LINEAGE_URL=http://$HOST:$LINEAGE_PORT \
  BATCHYARD_SCHEMA_REGISTRY_URL=$SCHEMA_REGISTRY_URL \
  BATCHYARD_COMPACTION_STORE_ROOT=$COMPACTION_ROOT \
  BATCHYARD_COMPACTION_S3_ALLOWED_BUCKETS=${BATCHYARD_COMPACTION_S3_ALLOWED_BUCKETS-batchyard} \
  BATCHYARD_RUNNER_SCRIPT_DIR=${BATCHYARD_RUNNER_SCRIPT_DIR:-$ROOT/deploy/local/demo-scripts} \
  BATCHYARD_SECRETS_KEY=$SECRETS_KEY BATCHYARD_GRAPHVIZ_DOT=${BATCHYARD_GRAPHVIZ_DOT:-dot} \
    env "${identity[@]}" nohup java -Xmx${BATCHYARD_SERVICE_HEAP:-384m} $SERVICE_JAVA_OPTS -Dvertx.disableURIValidation=true -jar "$jar" >>"$WORK/logs/$svc.log" 2>&1 &
  echo $! >"$WORK/pids/$svc.pid"
}
# The dashboard: no database, it reads the topics through the schema registry and trusts the same token issuer; its
# runner, compaction and lineage panels read those services with the viewer's token.
start_dashboard() {
  local jar=$ROOT/dashboard/target/quarkus-app/quarkus-run.jar
  [ -f "$jar" ] || { say "WARNING: $jar missing, the dashboard not started"; return; }
  if alive "$WORK/pids/dashboard.pid"; then say "dashboard already running"; return; fi
  require_free "$DASHBOARD_PORT" "the dashboard" BATCHYARD_DASHBOARD_PORT
  require_free "$DASHBOARD_MANAGEMENT_PORT" "the dashboard's health, metrics and OpenAPI" \
    BATCHYARD_DASHBOARD_MANAGEMENT_PORT
  log_start "$WORK/logs/dashboard.log" dashboard
  QUARKUS_HTTP_PORT=$DASHBOARD_PORT QUARKUS_HTTP_HOST=$BIND_HOST \
  QUARKUS_MANAGEMENT_HOST=$BIND_HOST QUARKUS_MANAGEMENT_PORT=$DASHBOARD_MANAGEMENT_PORT KAFKA_BOOTSTRAP_SERVERS=$HOST:$KAFKA_PORT \
  BATCHYARD_SCHEMA_REGISTRY_URL=$SCHEMA_REGISTRY_URL BATCHYARD_EXECUTION_URL=http://$HOST:$EXECUTION_PORT \
  BATCHYARD_QUEUE_URL=http://$HOST:$QUEUE_PORT BATCHYARD_LINEAGE_URL=http://$HOST:$LINEAGE_PORT \
    env "${IDENTITY_ENV[@]}" "${DASHBOARD_SIGN_IN_ENV[@]}" nohup java -Xmx${BATCHYARD_SERVICE_HEAP:-384m} $SERVICE_JAVA_OPTS -jar "$jar" >>"$WORK/logs/dashboard.log" 2>&1 &
  echo $! >"$WORK/pids/dashboard.pid"
}
await_service() {
  local svc=$1
  [ -f "$WORK/pids/$svc.pid" ] || return 0
  for _ in $(seq 1 180); do
    curl -fsS -o /dev/null "$(management_url "$svc")/health/ready" 2>/dev/null && return 0
    alive "$WORK/pids/$svc.pid" || { tail -40 "$WORK/logs/$svc.log"; die "$svc exited"; }
    sleep 0.5
  done
  tail -40 "$WORK/logs/$svc.log"; die "$svc not ready after 90 s"
}

start_kafka
start_postgres
configure_identity
start_schema_registry
if [ -n "${BATCHYARD_SECRETS_KEY:-}" ]; then SECRETS_KEY=$BATCHYARD_SECRETS_KEY
else
  [ -s "$WORK/secrets.key" ] || { (umask 077; head -c 32 /dev/urandom | base64 >"$WORK/secrets.key"); }
  SECRETS_KEY=$(cat "$WORK/secrets.key")
fi
prepare_jobs
for svc in "${SERVICES[@]}"; do start_service "$svc"; done
start_dashboard
for svc in "${SERVICES[@]}" dashboard; do await_service "$svc"; done

say "Batchyard is up:"
printf '  %-18s %-24s %-50s %s\n' service url 'health, metrics, openapi (no token)' log
for svc in "${SERVICES[@]}" dashboard; do
  p=$(port_of "$svc")
  printf '  %-18s %-24s %-50s %s\n' "$svc" "http://$HOST:$p" "$(management_url "$svc")/{health,metrics,openapi}" \
    "$WORK/logs/$svc.log"
done
say "Kafka: $HOST:$KAFKA_PORT    PostgreSQL ($PG_KIND): $PG_HOST:$PG_PORT (role batchyard)"
say "schema registry: $SCHEMA_REGISTRY_URL (Confluent-compatible API $SCHEMA_REGISTRY_URL/apis/ccompat/v7; log $WORK/logs/schema-registry.log)"
say "decoded lifecycle events:  kcat -C -b $HOST:$KAFKA_PORT -t batchyard.execution.lifecycle -s value=avro -r $SCHEMA_REGISTRY_URL/apis/ccompat/v7 -e"
if [ "$IDENTITY_MODE" = keycloak ]; then
  say "Keycloak: $KEYCLOAK_URL (realm batchyard; admin console $KEYCLOAK_URL/admin, user admin, password in $WORK/keycloak/admin.password; log $WORK/logs/keycloak.log)"
else
  say "tokens: signed with $WORK/signing-key/private.pem (issuer $SIGNING_ISSUER); no OpenID Connect provider"
fi
say "every call needs a token:  curl -H \"Authorization: Bearer \$(deploy/local/token.sh ana viewer)\" http://$HOST:$REGISTRY_PORT/processes"
if [ "$IDENTITY_MODE" = keycloak ]; then
  # A person to sign in to the dashboard with, in the browser: an operator, password generated once and kept.
  (umask 077; [ -s "$WORK/keycloak/ops.password" ] || openssl rand -hex 12 >"$WORK/keycloak/ops.password")
  BATCHYARD_USER_PASSWORD=$(cat "$WORK/keycloak/ops.password") "$ROOT/deploy/local/token.sh" ops operator demo >/dev/null
  say "dashboard: $DASHBOARD_URL (sign in as ops, password in $WORK/keycloak/ops.password; or send a bearer token; log $WORK/logs/dashboard.log)"
else
  say "dashboard: $DASHBOARD_URL (viewer role and above; the page takes the same bearer token as the API, log $WORK/logs/dashboard.log)"
fi
say "stop everything with deploy/local/stop.sh"

if [ "${BATCHYARD_NO_DEMO:-0}" != 1 ]; then
  "$ROOT/deploy/local/demo.sh"
fi
