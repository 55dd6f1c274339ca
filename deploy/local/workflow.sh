#!/usr/bin/env bash
# Writes a parent process's generated workflow to files: workflow.sh <parent-process-id> [out-dir]
#   -> <out-dir>/workflow-<id>.xml (Oozie, unless the parent runs stand-alone), .dot (Graphviz) and, when Graphviz is
#      available on the server, .svg
set -euo pipefail
source "$(dirname "$0")/common.sh"
[ $# -ge 1 ] || die "usage: workflow.sh <parent-process-id> [out-dir]"
ID=$1 OUT=${2:-.}
[[ $ID =~ ^[0-9]+$ ]] || die "the process id must be a number, got '$ID'"
mkdir -p "$OUT"
URL=${BATCHYARD_REGISTRY_URL:-http://127.0.0.1:$REGISTRY_PORT}
# Reading a workflow takes a viewer: BATCHYARD_TOKEN when given, else a token for the local stack's user "workflow".
TOKEN=${BATCHYARD_TOKEN:-$("$ROOT/deploy/local/token.sh" workflow viewer)}
for fmt in oozie dot svg; do
  ext=$fmt; [ $fmt = oozie ] && ext=xml
  file=$OUT/workflow-$ID.$ext
  code=$(curl -sS -o "$file.tmp" -w '%{http_code}' -H "Authorization: Bearer $TOKEN" "$URL/processes/$ID/workflow?format=$fmt") || die "registry at $URL did not answer"
  if [[ $code == 200 ]]; then mv "$file.tmp" "$file"; say "wrote $file"
  else
    msg=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('detail',''))" "$file.tmp" 2>/dev/null || true); rm -f "$file.tmp"
    [ $fmt = svg ] && [ "$code" = 503 ] && { say "no SVG: $msg"; continue; }
    # a stand-alone parent (run by execution-service's runner) has no Oozie form; its graph still renders
    [ $fmt = oozie ] && [ "$code" = 409 ] && { say "no Oozie XML: $msg"; continue; }
    die "$fmt: HTTP $code ${msg:+— $msg}"
  fi
done
