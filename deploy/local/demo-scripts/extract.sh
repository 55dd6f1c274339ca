#!/bin/sh
# Demo step "extract": writes the bucket's sales as CSV and prints the file's path (the next steps read it from
# PIPEINOUT, the runner's hand-over of the previous step's stdout).
set -eu
data="$(cd "$(dirname "$0")/.." && pwd)/.work/demo/data"
mkdir -p "$data"
out="$data/sales-$BATCHYARD_BUCKET.csv"
awk -v seed="$BATCHYARD_BUCKET" 'BEGIN {
  srand(seed); split("eu us apac", regions, " ");
  print "order_id,region,amount";
  for (i = 1; i <= 5000; i++) printf "%d,%s,%.2f\n", i, regions[int(rand() * 3) + 1], rand() * 200 - 10;
}' >"$out"
echo "extract: $(($(wc -l <"$out") - 1)) orders for bucket $BATCHYARD_BUCKET (job $PIPEJOBID)" >&2
echo "$out"
