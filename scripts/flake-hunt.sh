#!/usr/bin/env bash
# Runs the test suite again and again and prints a table of every test that failed, by test, with how often
# and the first line of its error: the way to find flaky tests and to show a fix holds.
#
#   bash scripts/flake-hunt.sh [--runs N] [--load] [--project unit|integration|all] [-- vitest args...]
#
#   --runs N     how many runs (default 10)
#   --load       a busy loop on every core for the whole hunt, so timing assumptions meet a loaded machine
#   --project P  which vitest project (default integration; `all` runs both)
# Reports go to .zkts-tmp/flake-hunt/<start time>/run-K.json; the table is printed at the end (and again by
# `node scripts/flake-table.mjs DIR`). Exits non-zero when any run failed.
set -uo pipefail
cd "$(dirname "$0")/.."

runs=10
load=0
project=integration
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --load) load=1; shift ;;
    --project) project="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "flake-hunt: unknown argument $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done
case "$runs" in ''|*[!0-9]*) echo "flake-hunt: --runs takes a whole number, got $runs" >&2; exit 2 ;; esac
case "$project" in unit|integration|all) ;; *) echo "flake-hunt: --project is unit, integration or all, got $project" >&2; exit 2 ;; esac

dir=".zkts-tmp/flake-hunt/$(date -u +%Y-%m-%dT%H-%M-%SZ)"
mkdir -p "$dir"
busy=()
run_pid=
stop_load() {
  for pid in "${busy[@]}"; do kill "$pid" 2>/dev/null; done
  # The run is its own process group (set -m below): this reaches vitest's workers and their servers too.
  [ -z "$run_pid" ] || kill -- "-$run_pid" 2>/dev/null
}
# Stopping the hunt stops it, not only the current run: without the exits, bash would run the trap and go on
# with the next run.
trap stop_load EXIT
trap 'stop_load; exit 130' INT
trap 'stop_load; exit 143' TERM
if [ "$load" = 1 ]; then
  for _ in $(seq "$(nproc)"); do
    node -e 'for (;;) {}' &
    busy+=("$!")
  done
  echo "flake-hunt: ${#busy[@]} busy loops running"
fi

projectArgs=()
[ "$project" = all ] || projectArgs=(--project "$project")
status=0
for k in $(seq "$runs"); do
  started=$(date +%s)
  # In the background and waited for, so a signal to the hunt is handled now rather than after the run.
  set -m
  npx vitest run "${projectArgs[@]}" --reporter=dot --reporter=json --outputFile.json="$dir/run-$k.json" "$@" >"$dir/run-$k.log" 2>&1 &
  run_pid=$!
  set +m
  wait "$run_pid" || status=1
  run_pid=
  echo "flake-hunt: run $k/$runs done in $(( $(date +%s) - started )) s: $(node scripts/summary.mjs "$dir/run-$k.json" | tail -1)"
done
node scripts/flake-table.mjs "$dir"
exit $status
