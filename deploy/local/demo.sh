#!/usr/bin/env bash
# The demo pipeline against a running stack (run.sh starts one): three chained jobs A -> B -> C. A is a stand-alone
# workflow with a fork and a join whose steps are real shell commands (deploy/local/demo-scripts), run by
# execution-service's runner; B and C make the lifecycle calls themselves with the batchyard CLI (client/cli), as a
# shell step or an Oozie action would. Each job's HaltJob fans its output batch out to the next job. Every lifecycle
# and queue event is printed as it flows through Kafka, A's workflow graph is written as DOT and SVG and B's as an
# Oozie workflow.
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$ROOT"
REG=http://$HOST:$REGISTRY_PORT EXE=http://$HOST:$EXECUTION_PORT QUE=http://$HOST:$QUEUE_PORT
LIN=http://$HOST:$LINEAGE_PORT
OUT=$WORK/demo; mkdir -p "$OUT"
# Two people run the demo, each with the lowest role their part needs: a developer registers the jobs, tables and
# queries; an operator runs them. AS is whoever acts now.
say "signing in: demo-dev (developer), demo-ops (operator) through deploy/local/token.sh"
DEV=$("$ROOT/deploy/local/token.sh" demo-dev developer demo)
OPS=$("$ROOT/deploy/local/token.sh" demo-ops operator demo)
AS=$DEV
get() { curl -sS -H "Authorization: Bearer $AS" "$@"; }

call() {  # call METHOD URL [JSON]: prints the body; a non-2xx answer (problem+json) stops the demo
  local method=$1 url=$2 body=${3:-} code
  code=$(curl -sS -o "$OUT/last.json" -w '%{http_code}' -X "$method" -H 'Content-Type: application/json' \
    -H "Authorization: Bearer $AS" ${body:+--data "$body"} "$url") || die "$method $url: no answer"
  [[ $code == 2* ]] || { cat "$OUT/last.json" >&2; echo >&2; die "$method $url -> HTTP $code"; }
  cat "$OUT/last.json"
}
field() { python3 -c "import sys,json; d=json.load(sys.stdin); print(eval('d' + sys.argv[1]))" "$1"; }
process() {  # process NAME TYPE PARENT ENQUEUERS [WORKFLOW_TYPE] -> id
  call POST "$REG/processes" "{\"name\":\"$1\",\"description\":\"demo $1\",\"applicationId\":$APP,\"processTypeId\":$2,\"parentProcessId\":$3,\"enqueuingProcessIds\":[$4]${5:+,\"workflowTypeId\":$5}}" | field "['id']"
}
link() { call PATCH "$REG/processes/$1" "{\"nextProcessIds\":[$2]}" >/dev/null; }
script() { call PUT "$REG/processes/$1/properties/script" "{\"configGroup\":\"script\",\"value\":\"$2\"}" >/dev/null; }
param() { call PUT "$REG/processes/$1/properties/$2" "{\"configGroup\":\"param\",\"value\":\"$3\"}" >/dev/null; }
await_known() {  # both read models have process $1 linked onward
  for svc in "$EXE" "$QUE"; do
    for _ in $(seq 1 100); do
      get -f "$svc/process-definitions/$1" 2>/dev/null | grep -q '"nextProcessIds":\[[0-9]' && break; sleep 0.2
    done
  done
}
# The batchyard CLI (client/cli), as a shell step would call it: endpoints and the token of whoever acts now through
# the environment; a refusal exits non-zero with the problem's code on stderr.
by() { BATCHYARD_TOKEN=$AS BATCHYARD_EXECUTION_URL=$EXE BATCHYARD_QUEUE_URL=$QUE BATCHYARD_REGISTRY_URL=$REG "$ROOT/client/cli/bin/batchyard" "$@"; }
run_job() {  # run_job PARENT MARKING STEP... -> prints InitJob outputs, runs the steps, halts (through the batchyard CLI)
  local parent=$1 marking=$2; shift 2
  say "batchyard init-job $parent"
  by init-job "$parent" --max-batch 1 >"$OUT/init-$parent.txt" || die "InitJob($parent) refused (exit $?)"
  sed 's/^/    /' "$OUT/init-$parent.txt"
  for s in "$@"; do
    by init-step "$s" >/dev/null && by halt-step "$s" >/dev/null || die "step $s refused"
    say "  batchyard init-step $s, batchyard halt-step $s"
  done
  [ -n "$marking" ] || marking=$(sed -n 's/^target-batch-marking=//p' "$OUT/init-$parent.txt")
  by halt-job "$parent" --batch-marking "$marking" >/dev/null || die "HaltJob($parent) refused (exit $?)"
  say "batchyard halt-job $parent --batch-marking \"$marking\""
}

say "demo: registering jobs A -> B -> C"
APP=$(call POST "$REG/applications" "{\"name\":\"demo-$(date +%s)\",\"description\":\"Demo sales pipeline\",\"owner\":\"demo@batchyard\"}" | field "['id']")
# demo-dev owns the application; its group "demo" (demo-ops is a member) may run the jobs, everyone else may read
call PUT "$REG/applications/$APP/permissions" '{"ownerUser":"demo-dev","ownerGroup":"demo","owner":7,"group":7,"others":4}' >/dev/null
say "application $APP: owner demo-dev (7), group demo (7: read, write, execute), others (4: read)"
A=$(process ingest-sales 2 null "" 2); A1=$(process extract 22 "$A" ""); A2=$(process clean-eu 22 "$A" ""); A3=$(process clean-us 22 "$A" ""); A4=$(process load 22 "$A" "")
for s in "$A1:extract.sh" "$A2:clean.sh" "$A3:clean.sh" "$A4:load.sh"; do script "${s%%:*}" "${s#*:}"; done
param "$A2" 1 eu; param "$A3" 1 us
link "$A" "$A1"; link "$A1" "$A2,$A3"; link "$A2" "$A4"; link "$A3" "$A4"; link "$A4" "$A"
B=$(process aggregate-sales 1 null ""); B1=$(process aggregate 12 "$B" "$A"); link "$B" "$B1"; link "$B1" "$B"
C=$(process publish-sales 1 null ""); C1=$(process publish 12 "$C" "$B"); link "$C" "$C1"; link "$C1" "$C"
say "  A=$A stand-alone (steps $A1 extract -> {$A2 clean eu, $A3 clean us} -> $A4 load)   B=$B (step $B1 consumes A)   C=$C (step $C1 consumes B)"
await_known "$A4"; await_known "$B1"; await_known "$C1"

CP=$(test_stack_classpath)
BATCHYARD_SCHEMA_REGISTRY_URL=$SCHEMA_REGISTRY_URL java -cp "$CP" io.batchyard.teststack.EventTail \
  "$HOST:$KAFKA_PORT" 60 batchyard.execution.lifecycle batchyard.queue.batches >"$OUT/events.log" 2>"$OUT/events.err" &
TAIL=$!
for _ in $(seq 1 50); do grep -q listening "$OUT/events.log" 2>/dev/null && break; sleep 0.2; done
grep -q listening "$OUT/events.log" || { cat "$OUT/events.err" >&2; die "the event tail did not start"; }
sleep 2
tail -f "$OUT/events.log" --pid=$TAIL &
SHOW=$!

AS=$OPS
say "runner: A runs daily buckets (YYYYMMDD); launching today's (as demo-ops)"
call PUT "$EXE/runner/processes/$A" '{"bucket":"YYYYMMDD","stepConcurrency":2,"timeoutSeconds":120}' >/dev/null
call POST "$EXE/runner/processes/$A/launch" >"$OUT/launch.json"
if [ "$(field "['started']" <"$OUT/launch.json")" = True ]; then
  BUCKET=$(field "['buckets'][0]" <"$OUT/launch.json")
else
  # the runner's own cycle (every few seconds) may have claimed today's bucket between the policy and the launch
  say "the runner's own cycle took it first: $(field "['reasons'][0]['message']" <"$OUT/launch.json")"
  BUCKET=$(call GET "$EXE/runner/processes/$A/buckets" | field "['items'][0]['bucket']")
fi
for _ in $(seq 1 120); do
  call GET "$EXE/runner/processes/$A/buckets" >"$OUT/buckets.json"
  STATE=$(python3 -c "import json,sys; print([b['status'] for b in json.load(open(sys.argv[1]))['items'] if b['bucket']==sys.argv[2]][0])" "$OUT/buckets.json" "$BUCKET")
  [ "$STATE" = RUNNING ] || break; sleep 0.5
done
IE=$(python3 -c "import json,sys; print([b['instanceExecId'] for b in json.load(open(sys.argv[1]))['items'] if b['bucket']==sys.argv[2]][0])" "$OUT/buckets.json" "$BUCKET")
say "A's bucket $BUCKET: $STATE (run $IE); what its commands printed:"
call GET "$EXE/runs/$IE/log?limit=500" | python3 -c "import json,sys; [print('    %-7s %s %s' % (l['stream'], l['loggedAt'][11:23], l['line'])) for l in json.load(sys.stdin)['items']]"
[ "$STATE" = COMPLETE ] || { by why "$A" --bucket "$BUCKET" >&2 || true; die "A's stand-alone run did not complete (see above; batchyard why $A --bucket $BUCKET explains)"; }
sleep 1
run_job "$B" "" "$B1"
sleep 3
say "C's queue now holds B's output batch:"
by queue list "$C1" | sed 's/^/    /'

# A runs stand-alone (its graph has no Oozie form: asking for one is a 409); B is the kind Oozie would run
by workflow export "$B" --format oozie -o "$OUT/workflow-$B.xml" >/dev/null || die "B's Oozie workflow could not be generated"
by workflow export "$A" --format dot -o "$OUT/workflow-$A.dot" >/dev/null || die "A's workflow graph could not be generated"
if by workflow export "$A" --format svg -o "$OUT/workflow-$A.svg" >/dev/null 2>&1; then
  say "A's workflow graph: $OUT/workflow-$A.dot and .svg (rendered by Graphviz); B's Oozie workflow: $OUT/workflow-$B.xml"
else
  say "A's workflow graph: $OUT/workflow-$A.dot (install graphviz for the SVG); B's Oozie workflow: $OUT/workflow-$B.xml"
fi

AS=$DEV
say "lineage: A's load step registers the HiveQL it stands for; column lineage is parsed at once (as demo-dev)"
call PUT "$LIN/tables/staging.orders" '{"columns":["order_id","region","amount","customer_id"]}' >/dev/null
call POST "$LIN/queries" "{\"queryType\":\"HIVE\",\"processId\":$A4,\"instanceExecId\":$IE,\"queryText\":\"INSERT OVERWRITE TABLE dw.revenue_by_region SELECT o.region, round(sum(o.amount), 2) AS revenue, count(o.order_id) AS orders FROM staging.orders o WHERE o.amount > 0 GROUP BY o.region\"}" \
  | python3 -c "import json,sys; q=json.load(sys.stdin); print('    query %s: %s, %s relations' % (q['id'], q['parseStatus'], q['relationCount']))"
call GET "$LIN/lineage/tables/dw.revenue_by_region?direction=upstream&depth=3" | python3 -c "
import json,sys
g=json.load(sys.stdin); key={n['id']: (n['name'] + '()' if n['type'] == 'FUNCTION' else n['key']) for n in g['nodes']}
for e in [e for e in g['edges'] if e['instanceExecId'] == $IE]: print('    %s %s %s' % (key[e['from']], '..>' if e['indirect'] else '-->', key[e['to']]))"
get -o "$OUT/lineage-revenue.dot" "$LIN/lineage/tables/dw.revenue_by_region?direction=upstream&depth=3&format=dot"
get -f -o "$OUT/lineage-revenue.svg" "$LIN/lineage/tables/dw.revenue_by_region?direction=upstream&depth=3&format=svg" 2>/dev/null \
  && say "  column lineage drawn: $OUT/lineage-revenue.svg" || say "  column lineage: $OUT/lineage-revenue.dot (install graphviz for the SVG)"
call GET "$LIN/lineage/processes/$B" | python3 -c "
import json,sys
p=json.load(sys.stdin); print('    process lineage of B: ' + json.dumps({k: p[k] for k in p if k in ('upstream', 'downstream')})[:400])"

say "compaction: 200 small click files for demo.clicks, merged by queue-service's workers"
CLICKS=$(date -u -d yesterday +%F)
call POST "$QUE/compaction/tables" '{"schemaName":"demo","tableName":"clicks","mergeIntervalSeconds":0}' >/dev/null
AS=$OPS
# producers put a table's objects in its folder of the store, <schema>/<table>/ (queue-service refuses other keys)
INCOMING=$COMPACTION_ROOT/demo/clicks/incoming-$(date +%s); mkdir -p "$INCOMING"
python3 - "$INCOMING" <<'PY'
import json, random, sys
random.seed(7)
for i in range(200):
    with open("%s/clicks-%03d.jsonl" % (sys.argv[1], i), "w") as f:
        for _ in range(25):
            f.write(json.dumps({"eventTime": random.randint(1_700_000_000_000, 1_700_086_399_000),
                                "user": "u%d" % random.randint(1, 50), "page": random.choice(["/", "/cart", "/pay"])}) + "\n")
PY
for f in "$INCOMING"/*.jsonl; do
  call POST "$QUE/compaction/objects" "{\"schemaName\":\"demo\",\"tableName\":\"clicks\",\"partitionDate\":\"$CLICKS\",\"objectKey\":\"${f#$COMPACTION_ROOT/}\"}" >/dev/null
done
PART=$(call GET "$QUE/compaction/partitions?limit=500" | python3 -c "import json,sys; print([p['partitionId'] for p in json.load(sys.stdin)['items'] if p['partitionDate']=='$CLICKS'][-1])")
for _ in $(seq 1 120); do
  busy=$(call GET "$QUE/compaction/jobs?partitionId=$PART" | field "['total']"); [ "$busy" = 0 ] && break; sleep 0.5
done
for _ in 1 2 3; do call POST "$QUE/compaction/catalog/sync" >/dev/null; done
call GET "$QUE/compaction/partitions/$PART/manifest" | python3 -c "
import json,sys
m=json.load(sys.stdin); e=m['manifest']['entries']
print('    partition %s of %s: 200 small objects -> manifest v%d with %d merged object(s), %d bytes' % ('$PART', '$CLICKS', m['version'], len(e), sum(x['meta']['content_length'] for x in e)))
for x in e[:3]: print('      ' + x['url'])"

kill "$TAIL" "$SHOW" 2>/dev/null || true
say "demo done; events in $OUT/events.log"
# The dashboard read the same topics: what it shows now, as the JSON its page draws (the operator's token; viewer is enough).
curl -fsS -H "Authorization: Bearer $OPS" "${DASHBOARD_URL}api/snapshot" | python3 -c "
import json,sys; s=json.load(sys.stdin)
print('[batchyard] dashboard: %d finished runs, %d running, %d queues (%s), %d events in its flow, %d jobs known' % (len(s['finished']), len(s['running']),
      len(s['queues']), ', '.join('%s: %d queued' % (q['processName'] or q['consumerProcessId'], q['queued']) for q in s['queues']), len(s['flow']), len(s['parents'])))"
# and what its compaction panel reads from queue-service, through the dashboard with the same token
curl -fsS -H "Authorization: Bearer $OPS" "${DASHBOARD_URL}api/panels/compaction" | python3 -c "
import json,sys; c=json.load(sys.stdin)
print('[batchyard] dashboard compaction panel: %d partitions, %d merge jobs pending, %d dead' % (c['partitionsTotal'], c['pendingTotal'], c['deadTotal']))"
if [ "$(sed -n 's/^IDENTITY_MODE=//p' "$WORK/identity.env" 2>/dev/null)" = keycloak ]; then
  say "watch it live: $DASHBOARD_URL (dashboard: sign in as ops, password in $WORK/keycloak/ops.password)"
else
  say "watch it live: $DASHBOARD_URL (dashboard: send the bearer token with the page)"
fi
