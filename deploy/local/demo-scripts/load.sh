#!/bin/sh
# Demo step "load", the join: PIPEINOUT holds the paths both clean branches printed. Sums each region's revenue.
set -eu
printf '%s\n' "$PIPEINOUT" | while read -r f; do
  [ -n "$f" ] || continue
  awk -F, 'NR > 1 { n++; s += $3; r = $2 } END { printf "load: %-5s %5d orders  revenue %10.2f\n", r, n, s }' "$f"
done
