#!/usr/bin/env bash
# Instructions per sequential getData of a warm client (bench/profile/seq-count.ts), counted by cachegrind, which
# a loaded machine does not change: the process run with N gets (default 100,000: at 10,000 the spread between
# runs, about 1% of the start-up and warm-up, is ±2k per get) minus the same process with none, divided by N,
# REPEAT times per client, alternating. Needs valgrind and a server:
#   ZKTS_SERVER=host:port bash bench/profile/seq-count.sh [N] [REPEAT] [client...]
# Compile the driver first: npx tsc -p bench/tsconfig.child.json (it runs the built packages' dist/).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-100000}
repeat=${2:-2}
shift $(( $# > 2 ? 2 : $# ))
clients=("$@")
[ ${#clients[@]} -gt 0 ] || clients=(raw zkts)
: "${ZKTS_SERVER:?ZKTS_SERVER=host:port names the server (bench/profile/server.ts starts one)}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

count() { # client N → instructions (Ir) of the whole process
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$out/cg" \
    node "$here/.build/profile/seq-count.js" "$1" "$2" 2> "$out/log" > /dev/null
  sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out/cg"
}

for ((r = 1; r <= repeat; r++)); do
  for c in "${clients[@]}"; do
    base=$(count "$c" 0)
    full=$(count "$c" "$n")
    echo "$c round $r: $(( (full - base) / n )) instructions per get ($base with none, $full with $n)"
  done
done
