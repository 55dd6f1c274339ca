#!/bin/sh
# Demo step "clean": usage clean.sh REGION BUCKET. Keeps REGION's orders with a positive amount from the file the
# previous step named on stdout, writes them next to it and prints the new file's path.
set -eu
region=$1
in=$(printf '%s\n' "$PIPEINOUT" | grep . | tail -n 1)
[ -f "$in" ] || { echo "clean: input '$in' not found" >&2; exit 2; }
out="${in%.csv}-$region.csv"
awk -F, -v r="$region" 'NR == 1 || ($2 == r && $3 > 0)' "$in" >"$out"
echo "clean[$region]: kept $(($(wc -l <"$out") - 1)) orders" >&2
sleep 2  # long enough to see both branches of the fork running at once in the log's timestamps
echo "$out"
