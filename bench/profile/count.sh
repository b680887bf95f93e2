#!/usr/bin/env bash
# Instructions per unit of work of a warm client, counted by cachegrind, which a loaded machine does not change:
# a counting driver run with N units (default 100,000) minus the same driver with none, divided by N, REPEAT
# times per variant, alternating. The drivers make their warm-up first and exit without closing:
#   seq-count    sequential getData (variants raw, zkts, nzk; at N = 10,000, with V8's threads, the spread
#                between runs, about 1% of the start-up and warm-up, was ±2k per get)
#   pipe-count   pipelined getData, 1,000 in flight (variants raw, zkts, nzk; user space only: the raw socket
#                makes ~500 times as many write syscalls per get as zkts, whose kernel side is not counted)
#   lock-count   uncontended lock cycles (variants mutex, bare; ~130k instructions a Mutex cycle: N = 20,000)
# Node runs with --single-threaded (NODE_FLAGS overrides it): with V8's compiler and GC threads, two runs of one
# build differed by up to 470M instructions at 20,000 lock cycles (±10% per cycle), on one thread by 41-44M
# (±1%), and two runs with none by 1-13M.
# Needs valgrind and a server:
#   ZKTS_SERVER=host:port bash bench/profile/count.sh DRIVER [N] [REPEAT] [variant...]
# Compile the drivers first: npx tsc -p bench/tsconfig.child.json (they run the built packages' dist/).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
driver=${1:?DRIVER: seq-count, pipe-count or lock-count}
n=${2:-100000}
repeat=${3:-2}
shift $(( $# > 3 ? 3 : $# ))
variants=("$@")
if [ ${#variants[@]} -eq 0 ]; then
  case $driver in
    seq-count|pipe-count) variants=(raw zkts) ;;
    lock-count) variants=(mutex bare) ;;
    *) echo "count.sh: name the variants of $driver" >&2; exit 2 ;;
  esac
fi
: "${ZKTS_SERVER:?ZKTS_SERVER=host:port names the server (bench/profile/server.ts starts one)}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

count() { # variant N → instructions (Ir) of the whole process
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$out/cg" \
    node ${NODE_FLAGS---single-threaded} "$here/.build/profile/$driver.js" "$1" "$2" 2> "$out/log" > /dev/null || { tail -20 "$out/log" >&2; return 1; }
  sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out/cg"
}

for ((r = 1; r <= repeat; r++)); do
  for v in "${variants[@]}"; do
    base=$(count "$v" 0) || exit 1
    full=$(count "$v" "$n") || exit 1
    echo "$driver $v round $r: $(( (full - base) / n )) instructions per unit ($base with none, $full with $n)"
  done
done
