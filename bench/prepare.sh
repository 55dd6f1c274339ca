# Sourced by the benchmark scripts: starts the local stack (deploy/local/run.sh, no demo) unless it is already up,
# builds the benchmark clients, and exports a bearer token with the roles they need (developer registers processes
# and tables, operator drives them).
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
source deploy/local/common.sh
mkdir -p bench/results

BATCHYARD_NO_DEMO=1 deploy/local/run.sh
./mvnw -B -q -Pbench -pl bench -am package -DskipTests
# A production PostgreSQL vacuums and analyzes on its own; one with autovacuum off (some development machines) keeps
# every dead row version and the planner's first idea of each table's size, so a long-lived prepared statement planned
# on a small table keeps scanning it whole as it grows. The benchmarks measure a maintained database: without
# autovacuum they vacuum and analyze the stack's databases before they start, and say so.
if [ "$(psql_admin -c 'SHOW autovacuum')" = off ]; then
  echo "[bench] autovacuum is off on this PostgreSQL: vacuuming and analyzing the stack's databases first"
  for db in "${DATABASES[@]}"; do psql_admin -d "$db" -c "VACUUM (ANALYZE)" >/dev/null; done
fi
BATCHYARD_TOKEN=$(deploy/local/token.sh bench developer,operator)
export BATCHYARD_TOKEN
echo "[bench] machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; load $(cut -d' ' -f1-3 /proc/loadavg)"
# The benchmark client shares the machine with the stack it measures; like the services it compiles with C1 only, so
# that its own warm-up costs the stack less CPU (BATCHYARD_BENCH_JAVA_OPTS replaces this).
BENCH_JAVA_OPTS=${BATCHYARD_BENCH_JAVA_OPTS-"-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"}
BENCH_CP="bench/target/batchyard-bench-0.1.0-SNAPSHOT.jar:bench/target/libs/*"
